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

