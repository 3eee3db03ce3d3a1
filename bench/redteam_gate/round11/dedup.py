import difflib, glob, re, sys, tomllib
refs = []
for f in glob.glob(__import__('os').path.dirname(__import__('os').path.abspath(__file__)) + '/../**/*.txt', recursive=True):
    if '/round11/' in f: continue
    refs += [l.rstrip('\n') for l in open(f) if l.strip() and not l.startswith('#')]
for f in glob.glob('/work/shared/corpora/dcg/**/*.toml', recursive=True):
    try: d = tomllib.load(open(f, 'rb'))
    except Exception as e: print('skip', f, e, file=sys.stderr); continue
    refs += [c['command'] for c in d.get('case', []) if 'command' in c]
for f in glob.glob('/work/shared/corpora/dcg-fixtures/commands/*.txt'):
    refs += [l.rstrip('\n') for l in open(f) if l.strip() and not l.startswith('#')]
print('refs', len(refs), file=sys.stderr)
def dup(line, pool):
    for r in pool:
        s = difflib.SequenceMatcher(None, line, r)
        if s.real_quick_ratio() > 0.85 and s.quick_ratio() > 0.85 and s.ratio() > 0.85:
            return r
    return None
kept_all = []
for name in sys.argv[1:]:
    lines = [l.rstrip('\n') for l in open(name) if l.strip() and not l.startswith('#')]
    kept, dropped = [], 0
    for l in lines:
        r = dup(l, refs) or dup(l, kept_all)
        if r is None:
            kept.append(l); kept_all.append(l)
        else:
            dropped += 1
            print(f'DROP {l!r} ~ {r!r}', file=sys.stderr)
    out = name.replace('_draft', '_kept')
    open(out, 'w').write('\n'.join(kept) + '\n')
    print(name, 'drafted', len(lines), 'dropped', dropped, 'kept', len(kept), file=sys.stderr)
