# tmux_lib.sh: the screen of a pmutop in tmux for the shell tests.  Source
# after lib.sh, with T set to the tmux command (its own server: -L NAME).

# screen: what the terminal shows now
screen() { $T capture-pane -p -t 0 2>/dev/null; }

# wait_for TEXT [SECONDS]: until the screen shows TEXT; 1 when it never does
wait_for() {
	i=0
	while [ $i -lt $((${2:-10} * 20)) ]; do
		case "$(screen)" in *"$1"*) return 0 ;; esac
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}


# tmux_end: end the tmux server once the pmutops in its panes have ended (after a q: up to
# 2 s, then TERM and 10 s more), so that none outlives its terminal: a sanitizer build's
# leak check at exit, its terminal gone under it, waits for ever on a CPU
tmux_end() {
	_left=""
	for _p in $($T list-panes -a -F '#{pane_pid}' 2>/dev/null); do
		_left="$_left $(pgrep -P "$_p" pmutop 2>/dev/null)"
		case "$(ps -o comm= -p "$_p" 2>/dev/null)" in pmutop*) _left="$_left $_p" ;; esac
	done
	for _sig in 0 TERM; do
		[ "$_sig" = TERM ] && for _p in $_left; do kill -TERM "$_p" 2>/dev/null; done
		_i=0
		# after the test's q, 2 s to end by itself (not a q of ours: quitting saves the
		# settings); after TERM, 10 s
		while [ $_i -lt $([ "$_sig" = TERM ] && echo 200 || echo 40) ]; do
			_alive=""
			for _p in $_left; do kill -0 "$_p" 2>/dev/null && _alive="$_alive $_p"; done
			[ -z "$_alive" ] && break 2
			sleep 0.05
			_i=$((_i + 1))
		done
	done
	$T kill-server 2>/dev/null
}
