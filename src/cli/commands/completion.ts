/**
 * `shipper completion bash|zsh`: a shell completion script generated from the commander program
 * itself, so every command, subcommand and flag (including those added later) completes without a
 * hand-kept list.
 */
import { Argument, type Command, type Option } from 'commander';
import { UsageError } from '../errors.js';
import type { ContextFactory } from '../context.js';

export const SHELLS = ['bash', 'zsh'] as const;
export type Shell = (typeof SHELLS)[number];

/** Values offered after a flag: a fixed list, files, or nothing (free text such as a ZIP). */
type ValueKind = { kind: 'words'; words: string[] } | { kind: 'files' } | { kind: 'none' };

/** A value placeholder that names a path: `--tariff <file>`, `--store <dir>`, `--to <zip|file>`, `<path>`. */
const PATH_PLACEHOLDER = /<[^>]*\b(file|dir|path|files)\b[^>]*>|\[[^\]]*\b(file|dir|path|files)\b[^\]]*\]/i;
/** Accessorial codes the SPEC names; the tariff may know more, but these are what people type. */
const ACCESSORIAL_CODES = ['LIFTGATE_PICKUP', 'LIFTGATE_DELIVERY', 'RESIDENTIAL_DELIVERY', 'INSIDE_DELIVERY', 'APPOINTMENT'];

export interface CompletionNode {
  /** Command words after `shipper`, e.g. "quote list"; "" is the root. */
  path: string;
  description: string;
  subcommands: Array<{ name: string; description: string }>;
  flags: Array<{ flag: string; description: string }>;
  /** Flags that take a value, with what to offer for it. */
  valueFlags: Array<{ flag: string; values: ValueKind }>;
  /** Choices of the first positional argument (e.g. bash|zsh), else files when it takes one. */
  argument: ValueKind;
}

function valueKind(option: Option): ValueKind {
  if (option.argChoices) return { kind: 'words', words: option.argChoices };
  if (option.long === '--accessorial') return { kind: 'words', words: ACCESSORIAL_CODES };
  if (PATH_PLACEHOLDER.test(option.flags)) return { kind: 'files' };
  return { kind: 'none' };
}

function flagsOf(option: Option): string[] {
  return [option.short, option.long].filter((flag): flag is string => Boolean(flag));
}

/**
 * Every command of the program with its subcommands and flags. The root's flags are global: they
 * are offered everywhere (but --version only at the root) and their values complete everywhere.
 */
export function completionTree(program: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const globals = program.options.filter((option) => option.long !== '--version');
  const visit = (command: Command, path: string): void => {
    const options = command === program ? command.options : [...command.options, ...globals];
    const argument = command.registeredArguments[0];
    nodes.push({
      path,
      description: command.description(),
      subcommands: command.commands.map((sub) => ({ name: sub.name(), description: sub.description() })),
      flags: [...options.flatMap((option) => flagsOf(option).map((flag) => ({ flag, description: option.description }))), { flag: '--help', description: 'show help' }],
      valueFlags: command.options
        .filter((option) => option.required || option.optional)
        .flatMap((option) => flagsOf(option).map((flag) => ({ flag, values: valueKind(option) }))),
      argument: argument?.argChoices
        ? { kind: 'words', words: argument.argChoices }
        : argument && /file|path|dir/i.test(argument.name())
          ? { kind: 'files' }
          : { kind: 'none' },
    });
    for (const sub of command.commands) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(program, '');
  return nodes;
}

const shellWord = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
/** `case` pattern of "<command path>|<flag>"; the root's flags are global, so any path matches. */
const valuePattern = (path: string, flag: string) => (path === '' ? `*${shellWord(`|${flag}`)}` : shellWord(`${path}|${flag}`));

export function bashScript(nodes: CompletionNode[]): string {
  const subcommandCases = nodes
    .filter((node) => node.subcommands.length > 0)
    .map((node) => `    ${shellWord(node.path)}) echo ${shellWord(node.subcommands.map((sub) => sub.name).join(' '))} ;;`)
    .join('\n');
  const flagCases = nodes.map((node) => `    ${shellWord(node.path)}) echo ${shellWord(node.flags.map((flag) => flag.flag).join(' '))} ;;`).join('\n');
  const valueCases = nodes
    .flatMap((node) =>
      node.valueFlags.map(({ flag, values }) => {
        const action =
          values.kind === 'words' ? `COMPREPLY=($(compgen -W ${shellWord(values.words.join(' '))} -- "$cur"))` : values.kind === 'files' ? 'compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur"))' : 'COMPREPLY=()';
        return `    ${valuePattern(node.path, flag)}) ${action}; return ;;`;
      }),
    )
    .join('\n');
  const argumentCases = nodes
    .filter((node) => node.subcommands.length === 0 && node.argument.kind !== 'none')
    .map((node) => {
      const action = node.argument.kind === 'words' ? `COMPREPLY=($(compgen -W ${shellWord(node.argument.words.join(' '))} -- "$cur"))` : 'compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur"))';
      return `    ${shellWord(node.path)}) ${action}; return ;;`;
    })
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
  const subcommandCases = nodes
    .filter((node) => node.subcommands.length > 0)
    .map((node) => `    ${shellWord(node.path)}) reply=(${node.subcommands.map((sub) => zshDescribed(sub.name, sub.description)).join(' ')}) ;;`)
    .join('\n');
  const flagCases = nodes
    .map((node) => `    ${shellWord(node.path)}) reply=(${node.flags.map((flag) => zshDescribed(flag.flag, flag.description)).join(' ')}) ;;`)
    .join('\n');
  const valueCases = nodes
    .flatMap((node) =>
      node.valueFlags.map(({ flag, values }) => {
        const action = values.kind === 'words' ? `compadd -- ${values.words.map(shellWord).join(' ')}` : values.kind === 'files' ? '_files' : 'return 0';
        return `    ${valuePattern(node.path, flag)}) ${action}; return ;;`;
      }),
    )
    .join('\n');
  const argumentCases = nodes
    .filter((node) => node.subcommands.length === 0 && node.argument.kind !== 'none')
    .map((node) => {
      const action = node.argument.kind === 'words' ? `compadd -- ${node.argument.words.map(shellWord).join(' ')}` : '_files';
      return `    ${shellWord(node.path)}) ${action}; return ;;`;
    })
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

export function completionScript(shell: string, program: Command): string {
  const nodes = completionTree(program);
  if (shell === 'bash') return bashScript(nodes);
  if (shell === 'zsh') return zshScript(nodes);
  throw new UsageError(`unknown shell "${shell}"`, 'shells: bash, zsh');
}

export function registerCompletionCommands(program: Command, context: ContextFactory): void {
  program
    .command('completion')
    .description('print a shell completion script (bash or zsh)')
    .addArgument(new Argument('<shell>', 'bash or zsh').choices(SHELLS))
    .addHelpText(
      'after',
      `
Examples:
  $ source <(shipper completion bash)                                   (this shell only)
  $ shipper completion bash > ~/.local/share/bash-completion/completions/shipper
  $ shipper completion zsh > "\${fpath[1]}/_shipper"                       (then restart zsh)`,
    )
    .action((shell: string, _options: unknown, command: Command) => {
      // The script is for the shell, never JSON: written as it is, even with --json.
      context(command).io.streams.stdout.write(completionScript(shell, program));
    });
}
