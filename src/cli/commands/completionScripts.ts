/**
 * The completion scripts, generated from the commander program (loaded by `shipper completion`
 * only: start-up of other commands never parses them). See completion.ts.
 */
import type { Command, Option } from 'commander';

/** Names asked for at completion time (`shipper __complete <source>`). */
export const DYNAMIC_SOURCES = ['locations', 'templates'] as const;
export type DynamicSource = (typeof DYNAMIC_SOURCES)[number];

/** Values offered after a flag: a fixed list, files, saved names, or nothing (free text such as a ZIP). */
export type ValueKind = { kind: 'words'; words: string[] } | { kind: 'files' } | { kind: 'dynamic'; source: DynamicSource } | { kind: 'none' };

/** Options whose values are saved names, by long flag (the same meaning in every command). */
const DYNAMIC_FLAGS: Record<string, DynamicSource> = { '--shipper': 'locations', '--consignee': 'locations', '--bill-to': 'locations', '--template': 'templates' };
/** Commands whose first argument is a saved name. */
const DYNAMIC_ARGUMENTS: Record<string, DynamicSource> = { 'location show': 'locations', 'location remove': 'locations' };

/** A value placeholder that names a path: `--tariff <file>`, `--store <dir>`, `--to <zip|file>`, `<path>`. */
const PATH_PLACEHOLDER = /<[^>]*\b(file|dir|path|files)\b[^>]*>|\[[^\]]*\b(file|dir|path|files)\b[^\]]*\]/i;

/** What the program alone does not know: the tariff's accessorial codes. */
export interface CompletionData {
  accessorials: string[];
}

export interface CompletionNode {
  /** Command words after `shipper`, e.g. "quote list"; "" is the root. */
  path: string;
  description: string;
  subcommands: Array<{ name: string; description: string }>;
  flags: Array<{ flag: string; description: string }>;
  /** Flags that take a value, with what to offer for it. */
  valueFlags: Array<{ flag: string; values: ValueKind }>;
  /** What the first positional argument takes: choices (bash|zsh|fish), files, saved names. */
  argument: ValueKind;
}

function valueKind(option: Option, data: CompletionData): ValueKind {
  const dynamic = option.long ? DYNAMIC_FLAGS[option.long] : undefined;
  if (dynamic) return { kind: 'dynamic', source: dynamic };
  if (option.long === '--accessorial') return { kind: 'words', words: data.accessorials };
  if (option.argChoices) return { kind: 'words', words: option.argChoices };
  if (PATH_PLACEHOLDER.test(option.flags)) return { kind: 'files' };
  return { kind: 'none' };
}

function flagsOf(option: Option): string[] {
  return [option.short, option.long].filter((flag): flag is string => Boolean(flag));
}

const isHidden = (command: Command) => (command as unknown as { _hidden?: boolean })._hidden === true;

/**
 * Every command of the program with its subcommands and flags (hidden ones left out). The root's
 * flags are global: they are offered everywhere (but --version only at the root) and their values
 * complete everywhere.
 */
export function completionTree(program: Command, data: CompletionData): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const globals = program.options.filter((option) => option.long !== '--version');
  const visit = (command: Command, path: string): void => {
    const options = command === program ? command.options : [...command.options, ...globals];
    const argument = command.registeredArguments[0];
    const subcommands = command.commands.filter((sub) => !isHidden(sub));
    const dynamicArgument = DYNAMIC_ARGUMENTS[path];
    nodes.push({
      path,
      description: command.description(),
      subcommands: subcommands.map((sub) => ({ name: sub.name(), description: sub.description() })),
      flags: [...options.flatMap((option) => flagsOf(option).map((flag) => ({ flag, description: option.description }))), { flag: '--help', description: 'show help' }],
      valueFlags: command.options
        .filter((option) => option.required || option.optional)
        .flatMap((option) => flagsOf(option).map((flag) => ({ flag, values: valueKind(option, data) }))),
      argument: dynamicArgument
        ? { kind: 'dynamic', source: dynamicArgument }
        : argument?.argChoices
          ? { kind: 'words', words: argument.argChoices }
          : argument && /file|path|dir/i.test(argument.name())
            ? { kind: 'files' }
            : { kind: 'none' },
    });
    for (const sub of subcommands) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(program, '');
  return nodes;
}

const shellWord = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
/** `case` pattern of "<command path>|<flag>"; the root's flags are global, so any path matches. */
const valuePattern = (path: string, flag: string) => (path === '' ? `*${shellWord(`|${flag}`)}` : shellWord(`${path}|${flag}`));

export function bashScript(nodes: CompletionNode[]): string {
  const action = (values: ValueKind): string => {
    if (values.kind === 'words') return `COMPREPLY=($(compgen -W ${shellWord(values.words.join(' '))} -- "$cur"))`;
    if (values.kind === 'files') return 'compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur"))';
    if (values.kind === 'dynamic') return `COMPREPLY=($(compgen -W "$(_shipper_dynamic ${values.source})" -- "$cur"))`;
    return 'COMPREPLY=()';
  };
  const subcommandCases = nodes
    .filter((node) => node.subcommands.length > 0)
    .map((node) => `    ${shellWord(node.path)}) echo ${shellWord(node.subcommands.map((sub) => sub.name).join(' '))} ;;`)
    .join('\n');
  const flagCases = nodes.map((node) => `    ${shellWord(node.path)}) echo ${shellWord(node.flags.map((flag) => flag.flag).join(' '))} ;;`).join('\n');
  const valueCases = nodes.flatMap((node) => node.valueFlags.map(({ flag, values }) => `    ${valuePattern(node.path, flag)}) ${action(values)}; return ;;`)).join('\n');
  const argumentCases = nodes
    .filter((node) => node.subcommands.length === 0 && node.argument.kind !== 'none')
    .map((node) => `    ${shellWord(node.path)}) ${action(node.argument)}; return ;;`)
    .join('\n');
  return `# bash completion for shipper, generated by \`shipper completion bash\`.
# Load it now:      source <(shipper completion bash)
# Load it always:   shipper completion bash > ~/.local/share/bash-completion/completions/shipper

_shipper_subcommands() {
  case "$1" in
${subcommandCases}
  esac
}

_shipper_flags() {
  case "$1" in
${flagCases}
  esac
}

# Names the user saved (locations, BOL templates), from the store this command line names.
_shipper_dynamic() {
  local i store=()
  for (( i = 1; i < COMP_CWORD; i++ )); do
    case "\${COMP_WORDS[i]}" in
      --store) store=(--store "\${COMP_WORDS[i+1]}") ;;
      --store=*) store=("\${COMP_WORDS[i]}") ;;
    esac
  done
  command "\${COMP_WORDS[0]}" "\${store[@]}" __complete "$1" 2>/dev/null
}

_shipper() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" cmdpath="" word i sub
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  # Walk the words before the cursor: each one that names a subcommand of the path so far extends it.
  for (( i = 1; i < COMP_CWORD; i++ )); do
    word="\${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && continue
    for sub in $(_shipper_subcommands "$cmdpath"); do
      if [[ "$word" == "$sub" ]]; then cmdpath="\${cmdpath:+$cmdpath }$word"; break; fi
    done
  done
  if [[ "$prev" == -* ]]; then
    case "$cmdpath|$prev" in
${valueCases}
    esac
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_shipper_flags "$cmdpath")" -- "$cur"))
    return
  fi
  local subs
  subs="$(_shipper_subcommands "$cmdpath")"
  if [[ -n "$subs" ]]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
    return
  fi
  case "$cmdpath" in
${argumentCases}
  esac
  COMPREPLY=()
}

complete -F _shipper shipper
`;
}

const zshDescribed = (name: string, description: string) => shellWord(`${name.replace(/:/g, '\\:')}:${oneLine(description)}`);

export function zshScript(nodes: CompletionNode[]): string {
  const action = (values: ValueKind): string => {
    if (values.kind === 'words') return `compadd -- ${values.words.map(shellWord).join(' ')}`;
    if (values.kind === 'files') return '_files';
    if (values.kind === 'dynamic') return `compadd -- \${(f)"$(_shipper_dynamic ${values.source})"}`;
    return 'return 0';
  };
  const subcommandCases = nodes
    .filter((node) => node.subcommands.length > 0)
    .map((node) => `    ${shellWord(node.path)}) reply=(${node.subcommands.map((sub) => zshDescribed(sub.name, sub.description)).join(' ')}) ;;`)
    .join('\n');
  const flagCases = nodes.map((node) => `    ${shellWord(node.path)}) reply=(${node.flags.map((flag) => zshDescribed(flag.flag, flag.description)).join(' ')}) ;;`).join('\n');
  const valueCases = nodes.flatMap((node) => node.valueFlags.map(({ flag, values }) => `    ${valuePattern(node.path, flag)}) ${action(values)}; return ;;`)).join('\n');
  const argumentCases = nodes
    .filter((node) => node.subcommands.length === 0 && node.argument.kind !== 'none')
    .map((node) => `    ${shellWord(node.path)}) ${action(node.argument)}; return ;;`)
    .join('\n');
  return `#compdef shipper
# zsh completion for shipper, generated by \`shipper completion zsh\`.
# Load it now:      source <(shipper completion zsh)       (after compinit)
# Load it always:   shipper completion zsh > "\${fpath[1]}/_shipper"   (then restart zsh)

_shipper_subcommands() {
  reply=()
  case "$1" in
${subcommandCases}
  esac
}

_shipper_flags() {
  reply=()
  case "$1" in
${flagCases}
  esac
}

# Names the user saved (locations, BOL templates), from the store this command line names.
_shipper_dynamic() {
  local -a store
  local i
  for (( i = 2; i < CURRENT; i++ )); do
    case "\${words[i]}" in
      --store) store=(--store "\${words[i+1]}") ;;
      --store=*) store=("\${words[i]}") ;;
    esac
  done
  command "\${words[1]}" "\${store[@]}" __complete "$1" 2>/dev/null
}

_shipper() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}" cmdpath="" word entry i
  local -a reply subs
  # Walk the words before the cursor: each one that names a subcommand of the path so far extends it.
  for (( i = 2; i < CURRENT; i++ )); do
    word="\${words[i]}"
    [[ "$word" == -* ]] && continue
    _shipper_subcommands "$cmdpath"
    for entry in "\${reply[@]}"; do
      if [[ "$word" == "\${entry%%:*}" ]]; then cmdpath="\${cmdpath:+$cmdpath }$word"; break; fi
    done
  done
  if [[ "$prev" == -* ]]; then
    case "$cmdpath|$prev" in
${valueCases}
    esac
  fi
  if [[ "$cur" == -* ]]; then
    _shipper_flags "$cmdpath"
    subs=("\${reply[@]}")
    _describe -t options 'shipper option' subs
    return
  fi
  _shipper_subcommands "$cmdpath"
  subs=("\${reply[@]}")
  if (( \${#subs} > 0 )); then
    _describe -t commands 'shipper command' subs
    return
  fi
  case "$cmdpath" in
${argumentCases}
  esac
  _files
}

if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _shipper "$@"
else
  compdef _shipper shipper
fi
`;
}

/** A fish string in single quotes: only \\ and ' are special there. */
const fishWord = (text: string) => `'${text.replace(/[\\']/g, (char) => `\\${char}`)}'`;

export function fishScript(nodes: CompletionNode[]): string {
  const root = nodes.find((node) => node.path === '')!;
  const globalFlags = new Set(root.flags.map((flag) => flag.flag));
  const condition = (path: string) => `-n ${fishWord(`__shipper_is ${fishWord(path)}`)}`;
  /** `-s x`/`-l name`, as fish takes a flag. */
  const flagSpec = (flag: string) => (flag.startsWith('--') ? `-l ${fishWord(flag.slice(2))}` : `-s ${fishWord(flag.slice(1))}`);
  const valueSpec = (values: ValueKind | undefined): string => {
    if (!values) return '';
    if (values.kind === 'words') return ` -x -a ${fishWord(values.words.join(' '))}`;
    if (values.kind === 'files') return ' -r -F';
    if (values.kind === 'dynamic') return ` -x -a ${fishWord(`(__shipper_dynamic ${values.source})`)}`;
    return ' -x';
  };
  const lines: string[] = [];
  for (const node of nodes) {
    const where = condition(node.path);
    const values = new Map(node.valueFlags.map(({ flag, values: kind }) => [flag, kind]));
    for (const sub of node.subcommands) lines.push(`complete -c shipper ${where} -f -a ${fishWord(sub.name)} -d ${fishWord(oneLine(sub.description))}`);
    for (const { flag, description } of node.flags) {
      // The root's flags (but -V/--version) are global: written once, offered everywhere.
      const version = flag === '--version' || flag === '-V';
      const global = node.path !== '' && globalFlags.has(flag) && !version;
      if (global || flag === '--help') continue;
      const everywhere = node.path === '' && !version;
      lines.push(`complete -c shipper${everywhere ? '' : ` ${where}`} ${flagSpec(flag)}${valueSpec(values.get(flag))} -d ${fishWord(oneLine(description))}`);
    }
    if (node.subcommands.length === 0 && node.argument.kind !== 'none') {
      const argument = node.argument;
      lines.push(
        argument.kind === 'files'
          ? `complete -c shipper ${where} -F`
          : `complete -c shipper ${where} -f -a ${fishWord(argument.kind === 'words' ? argument.words.join(' ') : argument.kind === 'dynamic' ? `(__shipper_dynamic ${argument.source})` : '')}`,
      );
    }
  }
  const subcommandCases = nodes
    .filter((node) => node.subcommands.length > 0)
    .map((node) => `        case ${fishWord(node.path)}\n            printf '%s\\n' ${node.subcommands.map((sub) => fishWord(sub.name)).join(' ')}`)
    .join('\n');
  return `# fish completion for shipper, generated by \`shipper completion fish\`.
# Load it now:      shipper completion fish | source
# Load it always:   shipper completion fish > ~/.config/fish/completions/shipper.fish

function __shipper_subcommands
    switch "$argv[1]"
${subcommandCases}
    end
end

# The command path so far ("", "quote", "quote list"): each word that names a subcommand extends it.
function __shipper_path
    set -l path ''
    set -l words (commandline -opc)
    set -e words[1]
    for word in $words
        string match -q -- '-*' $word; and continue
        if contains -- $word (__shipper_subcommands "$path")
            set path (string trim -- "$path $word")
        end
    end
    echo $path
end

function __shipper_is
    test (__shipper_path) = "$argv[1]"
end

# Names the user saved (locations, BOL templates), from the store this command line names.
function __shipper_dynamic
    set -l words (commandline -opc)
    set -l store
    for i in (seq 2 (count $words))
        switch $words[$i]
            case --store
                set store --store $words[(math $i + 1)]
            case '--store=*'
                set store $words[$i]
        end
    end
    command $words[1] $store __complete $argv[1] 2>/dev/null
end

# No file names unless an argument or a flag takes a file.
complete -c shipper -f
${lines.join('\n')}
complete -c shipper -s h -l help -d 'show help'
`;
}
