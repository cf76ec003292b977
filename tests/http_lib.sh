# http_lib.sh: a free port and a wait for a server's answer, for the shell
# tests of --serve.  Source after lib.sh, with PY set to a Python 3.

# free_port: a TCP port nothing listens on now (on 127.0.0.1)
free_port() {
	# below the kernel's range for outgoing connections (ip_local_port_range), whose ports
	# the suite's own curl and viewers take by the thousand: a port the kernel handed out
	# as free was taken by one of them before the server bound it (then the kernel's pick)
	$PY -c '
import random, socket
try:
    lo = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
except (OSError, ValueError, IndexError):
    lo = 0
for p in [random.randrange(lo - 12000, lo) for _ in range(50)] if lo > 13024 else []:
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p))
    except OSError:
        continue
    finally:
        s.close()
    print(p)
    break
else:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    print(s.getsockname()[1])'
}

# serve_run HOST COMMAND...: run (lib.sh) COMMAND --serve HOST:PORT on a free port (in $port),
# again on another while the one chosen was taken meanwhile (parallel tests open ports too)
serve_run() {
	_host=$1
	shift
	for _try in 1 2 3 4 5; do
		port=$(free_port)
		run "$@" --serve "$_host:$port"
		case "$err" in *"Address already in use"*) ;; *) return ;; esac
	done
}

# serve_bg ERRFILE COMMAND...: COMMAND --serve 127.0.0.1:PORT in the background on a free port
# (in $port, its pid in $serve_pid, its stderr in ERRFILE), again on another while the one
# chosen was taken meanwhile (parallel tests open ports too); 1 when it never served
serve_bg() {
	_err=$1
	shift
	for _try in 1 2 3 4 5; do
		port=$(free_port)
		"$@" --serve "127.0.0.1:$port" 2>"$_err" &
		serve_pid=$!
		wait_until 20 grep -q -e 'serving' -e 'Address already in use' "$_err"
		grep -q 'Address already in use' "$_err" || return 0
		wait $serve_pid 2>/dev/null
	done
	return 1
}

# wait_http URL [CURL OPTION...]: until it answers 200 (HTTP_WAIT_S, 10 s, at most)
wait_http() {
	u=$1
	shift
	i=0
	while [ $i -lt $((${HTTP_WAIT_S:-10} * 20)) ]; do
		[ "$(curl -s -o /dev/null -w '%{http_code}' "$@" "$u")" = 200 ] && return 0
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}
