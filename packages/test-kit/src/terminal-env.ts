/**
 * What differs between two terminals of one user: the variables a shell,
 * a terminal emulator and tmux set per window or pane. Give each "session" of
 * a test its own, so a test never holds fixed what users vary — one
 * environment for two sessions hides every bug that keys on the environment.
 */

/** The environment terminal `pane` adds to its programs; `pwd` and `oldPwd` are its current and last folder. */
export function terminalEnv(pane: number, pwd: string, oldPwd: string): Record<string, string> {
  return {
    TERM_SESSION_ID: `w0t${pane}p0:6F1C2A${pane}-${process.pid}`,
    TMUX: `/tmp/tmux-1000/default,${4000 + pane},0`,
    TMUX_PANE: `%${pane}`,
    WINDOWID: String(41_943_040 + pane),
    TERM: pane % 2 ? "tmux-256color" : "xterm-256color",
    COLORTERM: pane % 2 ? "truecolor" : "24bit",
    SHLVL: String(pane + 1),
    OLDPWD: oldPwd,
    PWD: pwd,
    _: pane % 2 ? "/usr/bin/pi" : "/usr/local/bin/pi",
  };
}
