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

# wait_until SECONDS CMD...: until CMD succeeds (a readiness check, not a fixed sleep); 1 when
# it never does
wait_until() {
	_s=$1
	shift
	_j=0
	while [ $_j -lt $((_s * 20)) ]; do
		"$@" && return 0
		sleep 0.05
		_j=$((_j + 1))
	done
	return 1
}
