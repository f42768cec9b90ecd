#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build/trace-events, the host's reader of the guest's trace.dat, on a
# small trace.dat of known events (mk-trace-dat.py) and on broken ones:
# cut anywhere (libtracecmd 3.1.6 crashed on those), corrupt, not a file,
# stdout on a full device or closed. Each broken input: exit 2, one line on stderr
# naming the file, nothing on stdout, and no hang. One KTAP document.
#
# Usage: trace-events-test.sh   (needs make tools: build/trace-events;
# TRACE_EVENTS=path overrides it)

set -uo pipefail

. "$(dirname "$0")/suite-lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
te=${TRACE_EVENTS:-$top/build/trace-events}

tmp=$(mktemp -d /tmp/trace-events-test.XXXXXX) || exit 1
ktap_atexit rm -rf "$tmp"

if [ ! -x "$te" ]; then
	nok "trace-events is built" "$te missing: run make tools"
	finish
fi
ok "trace-events is built"

# run FILE [ARGS...]: trace-events, at most 20 s, into $rc, $tmp/out, $err
run() {
	timeout 20 "$te" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	err=$(cat "$tmp/err")
}

# bad DESC FILE FRAGMENT [ARGS...]: exit 2, nothing on stdout, one line on
# stderr naming FILE and holding FRAGMENT
bad() {
	local desc=$1 file=$2 frag=$3 why=""

	shift 3
	run "$file" "$@"
	[ "$rc" -eq 124 ] && why="hangs (killed after 20 s)"
	[ -z "$why" ] && [ "$rc" -ne 2 ] && why="exit status $rc, want 2"
	[ -z "$why" ] && [ -s "$tmp/out" ] && why="$(wc -l <"$tmp/out") lines on stdout"
	[ -z "$why" ] && [ "$(wc -l <"$tmp/err")" -ne 1 ] && why="stderr is not one line"
	[ -z "$why" ] && [[ "$err" != *"$file"* ]] && why="message does not name $file"
	[ -z "$why" ] && [[ "$err" != *"$frag"* ]] && why="message lacks '$frag'"
	if [ -z "$why" ]; then
		ok "$desc"
	else
		nok "$desc" "$why" "stderr: ${err:0:300}"
	fi
}

dat=$tmp/trace.dat
if ! "${vxu4py[@]}" "$here/mk-trace-dat.py" "$dat"; then
	nok "mk-trace-dat.py writes a trace.dat"
	finish
fi
size=$(stat -c %s "$dat")
expect "mk-trace-dat.py: a trace.dat of 12288 bytes" 12288 "$size"

run "$dat"
expect "the whole trace.dat: exit 0, no message" "0 " "$rc $err"
expect "the whole trace.dat: its 6 events in time order" \
	"1000100 1000150 1000300 1000450 1000600 1000750" \
	"$(sed 's/^{"ts": \([0-9]*\),.*/\1/' "$tmp/out" | tr '\n' ' ' | sed 's/ $//')"
expect "the whole trace.dat: the first event, every field" \
	'{"ts": 1000100, "cpu": 0, "pid": 100, "event": "vxu4:vxu4_test", "f": {"value": -1, "util": 100, "comm": "small0"}}' \
	"$(head -1 "$tmp/out")"
run "$dat" vxu4:vxu4_test
expect "an event named: exit 0, its 6 lines" "0 6" "$rc $(wc -l <"$tmp/out")"
bad "an event not in the trace: exit 2" "$dat" "no event sched:nothing in it" sched:nothing

# Cut anywhere: in the header, the options, the CPUs' offsets, the data
# of CPU 0 or CPU 1 (its pages at 4096 and 8192)
for n in 0 5 10 100 500 1000 1054 1080 1100 1500 2000 4096 6000 8191 8192 \
	10000 12000 12287; do
	head -c "$n" "$dat" >"$tmp/cut-$n.dat"
	if [ "$n" -lt 10 ]; then
		want="not a trace-cmd trace.dat"
	else
		want="truncated"
	fi
	bad "cut to $n of 12288 bytes: exit 2, says so" "$tmp/cut-$n.dat" "$want"
done

# The header_page format garbled: libtracecmd fails to parse it, then
# crashed on its error path; its crash is caught, nothing printed
cp "$dat" "$tmp/garbled.dat"
printf '\377\377\377\377' | dd of="$tmp/garbled.dat" bs=1 seek=50 conv=notrunc status=none
bad "a garbled header_page: exit 2, no event printed" "$tmp/garbled.dat" "corrupt"

# CPU 0's page commit (its data size) beyond the page
cp "$dat" "$tmp/commit.dat"
printf '\377' | dd of="$tmp/commit.dat" bs=1 seek=4105 conv=notrunc status=none
bad "a page whose data size runs past it: exit 2, no event printed" "$tmp/commit.dat" "corrupt"

printf 'hello\n' >"$tmp/text.dat"
bad "a text file: exit 2" "$tmp/text.dat" "not a trace-cmd trace.dat"
bad "no such file: exit 2" "$tmp/none.dat" "cannot open"
bad "a directory: exit 2" "$tmp" "not a regular file"
mkfifo "$tmp/fifo.dat"
bad "a FIFO: exit 2, no hang" "$tmp/fifo.dat" "not a regular file"

# stdout on a full device: the write error is bad output, said so
timeout 20 "$te" "$dat" >/dev/full 2>"$tmp/err"
rc=$?
err=$(cat "$tmp/err")
if [ "$rc" -eq 2 ] && [[ $err == *stdout* ]]; then
	ok "stdout on a full device: exit 2, says stdout"
else
	nok "stdout on a full device: exit 2, says stdout" "exit $rc" "stderr: $err"
fi

# stdout closed (>&-): the temporary file that holds the child's events
# must not become fd 1 (the events then lost, exit 0); exit 2, says so
timeout 20 "$te" "$dat" vxu4:vxu4_test >&- 2>"$tmp/err"
rc=$?
err=$(cat "$tmp/err")
if [ "$rc" -eq 2 ] && [[ $err == *"stdout is closed"* ]] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
	ok "stdout closed: exit 2, one line, says stdout is closed"
else
	nok "stdout closed: exit 2, one line, says stdout is closed" "exit $rc" "stderr: $err"
fi
# stdin closed: opened on /dev/null, the events all there as with it open
timeout 20 "$te" "$dat" vxu4:vxu4_test <&- >"$tmp/out" 2>"$tmp/err"
rc=$?
expect "stdin closed: exit 0, the 6 events" "0 6" "$rc $(wc -l <"$tmp/out")"
finish
