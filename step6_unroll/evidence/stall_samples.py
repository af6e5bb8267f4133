#!/usr/bin/env python3
"""Reads Nsight Compute's per-instruction source page of one kernel (`ncu -i REPORT --page
source --csv --print-source sass`, optionally gzipped) and prints its warp-stall samples:
each reason's share of all samples and of the not-issued ones (cycles where the warp's
scheduler issued nothing), the same by opcode, and the instructions of the main loop (from the first to the
last of the most executed ones) that carry at least MIN not-issued samples (default 150), with their
reasons. Exploration only (runs 31, 32 and 34)."""
import collections, csv, gzip, sys

path = sys.argv[1]
least = float(sys.argv[2]) if len(sys.argv) > 2 else 150
rows = list(csv.reader(gzip.open(path, 'rt') if path.endswith('.gz') else open(path)))
print(rows[0][1][:150])
hdr, data = rows[1], rows[2:]
ix = {h: i for i, h in enumerate(hdr)}

def num(x):
    try:
        return float(x.replace(',', ''))
    except ValueError:
        return 0.0

reasons = [h for h in hdr if h.startswith('stall_') and not h.endswith('(Not Issued)')]
not_issued = {h: h + ' (Not Issued)' for h in reasons}
not_issued['stall_sleep'] = 'stall_sleeping (Not Issued)'
total = sum(num(r[ix['Warp Stall Sampling (All Samples)']]) for r in data)

def opcode(src):
    words = src.split()
    if words and words[0].startswith('@'):
        words = words[1:]
    return words[0].split('.')[0] if words else ''

by_reason, by_reason_ni = collections.Counter(), collections.Counter()
by_op = collections.defaultdict(collections.Counter)
for r in data:
    for h in reasons:
        by_reason[h] += num(r[ix[h]])
        if not_issued[h] in ix:
            by_reason_ni[h] += num(r[ix[not_issued[h]]])
        by_op[opcode(r[ix['Source']])][h] += num(r[ix[h]])
print(f'samples: {total:.0f}; not issued: {sum(by_reason_ni.values()):.0f}')
print('reason                       all samples       not issued')
for h, v in by_reason.most_common():
    if v:
        print(f'{h[6:]:24s} {v:9.0f} {100 * v / total:6.2f}%  {by_reason_ni[h]:8.0f} {100 * by_reason_ni[h] / total:6.2f}%')
print('by opcode (share of all samples; its top reasons)')
for op, c in sorted(by_op.items(), key=lambda kv: -sum(kv[1].values()))[:10]:
    share = 100 * sum(c.values()) / total
    print(f'  {op:8s} {share:6.2f}%  ' + ', '.join(f'{k[6:]} {100 * v / total:.2f}' for k, v in c.most_common(4) if v))
executed = collections.Counter(r[ix['Instructions Executed']] for r in data)
loop_count = max((c for c in executed if num(c) > 0), key=num)
first = min(i for i, r in enumerate(data) if r[ix['Instructions Executed']] == loop_count)
last = max(i for i, r in enumerate(data) if r[ix['Instructions Executed']] == loop_count)
loop = data[first:last + 1]
print(f'main loop: {len(loop)} instructions, most executed {loop_count} times; those with >= {least:.0f} not-issued samples:')
for pos, r in enumerate(loop):
    ni = {h: num(r[ix[not_issued[h]]]) for h in reasons if not_issued[h] in ix}
    if sum(ni.values()) >= least:
        why = ', '.join(f'{h[6:]} {v:.0f}' for h, v in sorted(ni.items(), key=lambda kv: -kv[1]) if v >= 10)
        print(f'  {pos:5d}  {r[ix["Source"]].strip()[:60]:60s} {sum(ni.values()):6.0f}  {why}')
