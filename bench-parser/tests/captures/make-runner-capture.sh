#!/bin/sh
# Runs the real target-side runner (meta-perfguide/recipes-benchmark/perfguide-bench/files/perfguide-bench) with fake benchmarks
# on PATH, the way tests/layer/check.sh does, and prints its output: two sessions, the
# second with --repeat 2. The fake benchmarks print their tools' real output formats.
# Usage: sh make-runner-capture.sh [SHELL] > runner-two-sessions.txt
set -eu
here=$(cd "$(dirname "$0")" && pwd)
runner=$here/../../../meta-perfguide/recipes-benchmark/perfguide-bench/files/perfguide-bench
shell=${1:-sh}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/fake" "$t/run"
cat >"$t/fake/dhry" <<'EOF'
#!/bin/sh
read -r runs
echo "Dhrystone Benchmark, Version 2.1 (Language: C)"
echo
echo "Program compiled without 'register' attribute"
echo
echo "Execution starts, $runs runs through Dhrystone"
echo "Execution ends"
echo
echo "Microseconds for one run through Dhrystone:    0.2"
echo "Dhrystones per Second:                      5000000.0"
EOF
cat >"$t/fake/whetstone" <<'EOF'
#!/bin/sh
echo "whetstone: loops $1"
echo "whetstone: floating point exception" >&2
exit 3
EOF
# bw_mem -P 1 <n>m <op>: lmbench prints "<MB> <MB/s>" (%.2f, 10^6 bytes) on stderr.
cat >"$t/fake/bw_mem" <<'EOF'
#!/bin/sh
case $3 in
1m) echo "1.05 4533.76" >&2 ;;
*) echo "2.10 2210.42" >&2 ;;
esac
EOF
cat >"$t/fake/lat_syscall" <<'EOF'
#!/bin/sh
case $3 in
null) echo "Simple syscall: 0.2107 microseconds" >&2 ;;
*) echo "Simple $3: 0.4021 microseconds" >&2 ;;
esac
EOF
# stream: STREAM 5.10 without a final newline after the last rule.
cat >"$t/fake/stream" <<'EOF'
#!/bin/sh
echo "-------------------------------------------------------------"
echo "STREAM version \$Revision: 5.10 \$"
echo "-------------------------------------------------------------"
echo "Array size = 10000000 (elements), Offset = 0 (elements)"
echo "-------------------------------------------------------------"
echo "Function    Best Rate MB/s  Avg time     Min time     Max time"
echo "Copy:            5432.1     0.029502     0.029455     0.029601"
echo "Scale:           5321.0     0.030112     0.030070     0.030190"
echo "Add:             6012.3     0.039980     0.039918     0.040050"
echo "Triad:           6001.9     0.040050     0.039987     0.040120"
printf '%s' "-------------------------------------------------------------"
EOF
chmod +x "$t/fake/"*
run() {
	(cd "$t/run" && env -i PATH="$t/fake:/usr/bin:/bin" HOME="$t/run" TMPDIR="$t/run" \
		"$shell" "$runner" run "$@") || true
}
run dhrystone whetstone lmbench/bw_mem-rd-1mb lmbench/lat_syscall-null iperf3/tcp-tx coremark
run --repeat 2 stream lmbench/bw_mem-wr-2mb
