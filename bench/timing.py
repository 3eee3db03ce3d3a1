#!/usr/bin/env python3
"""Run commands repeatedly, interleaved, and print p50/p99/mean in milliseconds.

Usage: timing.py RUNS NAME=COMMAND [NAME=COMMAND ...]
Each COMMAND runs through `sh -c` in the current directory; timings are of the whole
process (spawn to exit), taken round-robin so machine noise hits every command alike.
Prints one line per command and, for every command after the first, its ratio to the first.
"""
import statistics
import subprocess
import sys
import time


def main():
    runs = int(sys.argv[1])
    named = [arg.split("=", 1) for arg in sys.argv[2:]]
    samples = {name: [] for name, _ in named}
    for name, cmd in named:  # warm caches once
        subprocess.run(["sh", "-c", cmd], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(runs):
        for name, cmd in named:
            argv = ["sh", "-c", "exec " + cmd]
            start = time.perf_counter_ns()
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            samples[name].append((time.perf_counter_ns() - start) / 1e6)
    first = None
    for name, _ in named:
        xs = sorted(samples[name])
        p50 = statistics.median(xs)
        p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
        line = f"{name:<34} p50 {p50:8.2f} ms   p99 {p99:8.2f} ms   mean {statistics.mean(xs):8.2f} ms"
        if first is None:
            first = p50
        else:
            line += f"   p50 ratio to first {p50 / first:5.2f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
