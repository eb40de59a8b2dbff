#!/usr/bin/env python3
"""Groups a flat `perf report --stdio --sort sym` of the server into where the time goes
(kernel symbols by subsystem, user symbols by crate) and turns each share into microseconds
of a move, for two profiles side by side (BENCHMARKS.md, "Where a move's microseconds go").

Usage: perf_categories.py BEFORE.syms US_A_MOVE AFTER.syms US_A_MOVE
"""
import re,sys
def cat(kind,s):
    if kind=='k':
        if any(x in s for x in ['tcp','inet','ip_','skb','sock','__sys_','sendmsg','recvmsg','netif','net_rx','loopback','__dev_queue','dev_hard','napi','softirq','_copy_to_iter','copy_from_iter','_copy_from_iter','ep_','epoll']): return 'kernel: network and epoll'
        if any(x in s for x in ['ext4','jbd2','filemap','folio','page_cache','mark_buffer','blk','nvme','iowrite','fsync','file_','vfs_','generic_perform_write','writeback','xas_','copy_folio','bio']): return 'kernel: file writes and fsync (SQLite)'
        if any(x in s for x in ['futex','schedule','switch','task','wake','enqueue','dequeue','pick_next','raw_spin','update_curr','select_task','ttwu','irqentry','try_to_wake','load_balance','newidle','cpuidle','idle']): return 'kernel: scheduling and wake-ups'
        if any(x in s for x in ['page','mm_','alloc','clear_page','memcg','lru','pte','handle_mm','do_anonymous','vma','mmap','munmap','__do_fault']): return 'kernel: memory pages'
        return 'kernel: other (syscall entry, ...)'
    if s.startswith('sqlite3') or 'sqlx' in s or s.startswith('pager') or s.startswith('btree') or 'Vdbe' in s: return 'SQLite and sqlx'
    if s.startswith('rookery_core') or s.startswith('rookery_openings'): return 'core rules, opening names'
    if 'serde' in s: return 'JSON (serde)'
    if 'tokio' in s or 'futures' in s or 'mio' in s: return 'tokio: tasks, channels, timers'
    if 'hyper' in s or 'axum' in s or 'tungstenite' in s or 'http::' in s or 'bytes::' in s: return 'hyper, axum, tungstenite'
    if s.startswith('mi_') or s.startswith('_mi_') or 'malloc' in s or 'free' in s: return 'allocation'
    if 'mem' in s or 'str' in s: return 'libc memcpy, memset, strings'
    if s.startswith('rookery_server'): return 'server: rooms, sockets, writer'
    return 'other'
res={}
for f,us in [(sys.argv[1],float(sys.argv[2])),(sys.argv[3],float(sys.argv[4]))]:
    cats={}
    for line in open(f):
        m=re.match(r'\s*([\d.]+)%\s+\[(.)\]\s+(.*)',line)
        if not m: continue
        c=cat(m.group(2),m.group(3).strip()); cats[c]=cats.get(c,0)+float(m.group(1))
    res[f]=(cats,us)
keys=sorted(set(res[sys.argv[1]][0])|set(res[sys.argv[3]][0]), key=lambda k:-res[sys.argv[1]][0].get(k,0))
print("| where | before: share, us a move | after: share, us a move |")
print("|---|---|---|")
for k in keys:
    a=res[sys.argv[1]]; b=res[sys.argv[3]]
    pa=a[0].get(k,0); pb=b[0].get(k,0)
    print(f"| {k} | {pa:.1f}%, {pa*a[1]/100:.1f} | {pb:.1f}%, {pb*b[1]/100:.1f} |")
