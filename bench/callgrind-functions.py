#!/usr/bin/env python3
"""
Self instructions per function of a callgrind dump, with V8's compiled JavaScript named from the
process's perf map (node --perf-basic-prof, kept by BENCH_KEEP_CALLGRIND: bench/count-sockets.ts).

  python3 bench/callgrind-functions.py <dump> <perf.map> [per-request divisor] [top N]

Code callgrind cannot name is a hex address; it is looked up in the map (the newest entry
covering the address wins, since V8 reuses code space).
"""
import bisect, re, sys
from collections import defaultdict

dump, mapfile = sys.argv[1], sys.argv[2]
div = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
top = int(sys.argv[4]) if len(sys.argv) > 4 else 60

entries = []
for line in open(mapfile, errors='replace'):
    parts = line.rstrip('\n').split(' ', 2)
    if len(parts) == 3:
        try:
            entries.append((int(parts[0], 16), int(parts[1], 16), parts[2]))
        except ValueError:
            pass
# Later entries win: keep file order, search backwards among overlapping ones.
starts = sorted(range(len(entries)), key=lambda i: entries[i][0])
sorted_starts = [entries[i][0] for i in starts]

def jit_name(addr):
    j = bisect.bisect_right(sorted_starts, addr) - 1
    best = None
    k = j
    while k >= 0 and k > j - 64:
        s, size, name = entries[starts[k]]
        if s <= addr < s + size and (best is None or starts[k] > best[0]):
            best = (starts[k], name)
        k -= 1
    return best[1] if best else None

names = {}
def resolve(tok, table):
    m = re.match(r'\((\d+)\)(?:\s+(.*))?', tok)
    if not m:
        return tok
    if m.group(2) is not None:
        table[m.group(1)] = m.group(2)
    return table.get(m.group(1), tok)

selfcost = defaultdict(int)
objs = {}
fn = None
skip = False
total = 0
for line in open(dump, errors='replace'):
    line = line.rstrip('\n')
    if line.startswith('fn='):
        fn = resolve(line[3:], names)
        skip = False
    elif line.startswith(('cfn=', 'cfi=', 'cfl=', 'cob=')):
        if line.startswith('cfn='):
            resolve(line[4:], names)
    elif line.startswith('calls='):
        skip = True
    elif line and (line[0].isdigit() or line[0] in '+-*'):
        cost = line.split()
        if len(cost) >= 2:
            c = int(cost[1])
            if skip:
                skip = False
            else:
                selfcost[fn] += c
                total += c
        elif skip:
            skip = False

named = defaultdict(int)
for f, c in selfcost.items():
    n = f
    m = re.match(r'0x([0-9a-fA-F]+)$', f or '')
    if m:
        n = jit_name(int(m.group(1), 16)) or '[jit ?]'
    named[n] += c
print(f'total {total/div:,.0f} per request')
for n, c in sorted(named.items(), key=lambda x: -x[1])[:top]:
    print(f'{c/div:10,.0f}  {n}')
