use crate::cli::ReceiptArgs;
use crate::exit::Exit;
use std::path::Path;

pub fn run(dir: &Path, args: &ReceiptArgs) -> anyhow::Result<Exit> {
    let (_, root) = gate::done::find_root(dir);
    let Some(receipt) = gate::store::latest(&root)? else {
        anyhow::bail!(
            "no receipt yet in {}: run `loopgate check` first",
            root.display()
        );
    };
    if !receipt.verify_seal() {
        anyhow::bail!(
            "{}: the receipt's body does not match its hash (edited after it was written); run `loopgate check` again",
            gate::store::latest_path(&root).display()
        );
    }
    if args.md {
        print!("{}", gate::markdown::render(&receipt));
    } else if args.json {
        println!("{}", serde_json::to_string_pretty(&receipt)?);
    } else {
        crate::report::print_receipt(&receipt);
    }
    Ok(Exit::Pass)
}
