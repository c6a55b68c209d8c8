#!/usr/bin/env python3
"""Lists the longest functions of Sources (counted by indentation, from the line of `func` or `init` to its closing
brace), and how many are over 60 lines: the measure issue 40 uses. Usage: scripts/longest-functions.py [N]"""
import re, sys, glob
rows=[]
for path in glob.glob('Sources/**/*.swift', recursive=True):
    if 'OpeningBook+Entries' in path: continue
    lines=open(path).read().split('\n')
    for i,l in enumerate(lines):
        m=re.match(r'^(\s*)(?:(?:public|private|package|internal|fileprivate|static|mutating|nonisolated|override|@\w+(?:\([^)]*\))?)\s+)*(func|init)\b\s*([^\s(<]*)', l)
        if not m: continue
        ind=m.group(1)
        # find opening brace line then closing with same indent
        for j in range(i, len(lines)):
            if lines[j].startswith(ind+'}') and j>i:
                rows.append((j-i+1, f"{path}:{i+1} {m.group(2)} {m.group(3)}"))
                break
            if j>i and re.match(r'^'+ind+r'\S', lines[j]) and not lines[j].startswith(ind+'}') and not lines[j].startswith(ind+')') and not lines[j].startswith(ind+'{'):
                break
rows.sort(reverse=True)
for n,name in rows[:int(sys.argv[1]) if len(sys.argv)>1 else 10]: print(n, name)
print('over 60:', sum(1 for n,_ in rows if n>60))
