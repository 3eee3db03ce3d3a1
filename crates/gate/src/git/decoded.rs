//! Objects the object store already decoded in this run, kept so the next lookup does not
//! decode them again: every `commit:path` read walks from the commit through each tree
//! on the path, and in a pack an object is often the end of a chain of deltas, each of
//! which is inflated and applied again at every read. Both caches hold exact copies of
//! what the store gave, keyed by what names it uniquely, so an answer is the same with or
//! without them; each is capped, past which it keeps nothing more.

use gix_hash::ObjectId;
use gix_object::Kind;
use std::collections::HashMap;

/// Bytes each cache may hold: far more than a guards run reads, far less than a machine.
const CAP: usize = 64 << 20;

/// Whole objects by id: the commits and trees read from loose files or packs. Blobs are
/// read once each and are not kept.
#[derive(Default)]
pub struct Objects {
    map: HashMap<ObjectId, (Kind, Vec<u8>)>,
    bytes: usize,
}

impl gix_odb::pack::cache::Object for Objects {
    fn put(&mut self, id: ObjectId, kind: Kind, data: &[u8]) {
        if matches!(kind, Kind::Commit | Kind::Tree) && self.bytes + data.len() <= CAP {
            self.bytes += data.len();
            self.map.insert(id, (kind, data.to_vec()));
        }
    }

    fn get(&mut self, id: &ObjectId, out: &mut Vec<u8>) -> Option<Kind> {
        let (kind, data) = self.map.get(id)?;
        out.clear();
        out.extend_from_slice(data);
        Some(*kind)
    }
}

/// Decoded pack entries by pack and offset: the bases of delta chains, which the objects
/// read by one run share (the versions of one tree, of one file).
#[derive(Default)]
pub struct Entries {
    map: HashMap<(u32, u64), (Kind, usize, Vec<u8>)>,
    bytes: usize,
}

impl gix_odb::pack::cache::DecodeEntry for Entries {
    fn put(&mut self, pack_id: u32, offset: u64, data: &[u8], kind: Kind, compressed_size: usize) {
        if self.bytes + data.len() <= CAP {
            self.bytes += data.len();
            self.map
                .insert((pack_id, offset), (kind, compressed_size, data.to_vec()));
        }
    }

    fn get(&mut self, pack_id: u32, offset: u64, out: &mut Vec<u8>) -> Option<(Kind, usize)> {
        let (kind, compressed_size, data) = self.map.get(&(pack_id, offset))?;
        out.clear();
        out.extend_from_slice(data);
        Some((*kind, *compressed_size))
    }
}
