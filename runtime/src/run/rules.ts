// The script runner's rules that rt's compiled front (runtime/native/) applies too. Kept free of
// imports: the build writes them into the front's source (native/shared_rules.go), so the two
// read one definition.

/** The system shell: the first of these on PATH (Linux/macOS). */
export const POSIX_SHELLS = ["bash", "sh", "zsh"];

/**
 * Names the shell gives a meaning of its own (builtins and keywords of bash, sh and zsh): a
 * program of the same name on PATH is not what the script means. `true` and `false` are the
 * exception: their programs do what the builtins do.
 */
export const SHELL_NAMES = (
  ". : [ [[ ]] { } ! alias bg bind break builtin caller case cd command compgen complete compopt continue coproc declare dirs disown do done " +
  "echo elif else enable esac eval exec exit export fc fg fi for function getopts hash help history if in jobs kill let local logout mapfile " +
  "popd printf pushd pwd read readarray readonly repeat return select set setopt shift shopt source suspend test then time times trap " +
  "type typeset ulimit umask unalias unset until wait whence while"
).split(" ");

/** A word the shell reads as itself: appended arguments like it stay unquoted, and only such words make a simple command. */
export const SAFE_WORD = /^[\w@%+=:,./-]+$/;

/** Files with these extensions are run by `rt <name>` even when a script has the same name. */
export const RUNNABLE_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".jsx", ".js", ".mjs", ".cjs"];

export const NO_SHELL_MESSAGE = "No shell found on PATH (looked for bash, sh and zsh); install one, or run scripts with --shell=rt";

/**
 * The guardian of running scripts (process.ts): each line rt writes is the list of their process
 * groups (`-pid -pid`); when rt ends, however it ends, the pipe reaches end-of-file and the last
 * list gets SIGKILL.
 */
export const GUARDIAN_PROGRAM = `while read -r line; do groups=$line; done; [ -z "$groups" ] || kill -KILL $groups`;

/** Colours told apart on a dark or light terminal, for the labels of concurrent scripts (SGR codes). */
export const LABEL_COLORS = ["36", "33", "35", "32", "34", "31"];
