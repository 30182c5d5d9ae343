/**
 * The shell examples of the documentation, found and run. `examplesOf(markdown)` finds every
 * command line of the ```sh and ```console blocks (a console block's commands are its `$ ` lines);
 * `parseLine` reads one as a small POSIX shell does: quotes, backslashes, `$VAR`, `$(...)`, `NAME=value`
 * assignments and environment prefixes, pipes, `&&`, `;`, `<`, `>` and `2>`, `#` comments. Running it is
 * the test's (test/docs/guides.test.ts), which runs `shipper` in process and knows a few other commands.
 */

export interface DocExample {
  /** 1-based line of the markdown where the command starts. */
  line: number;
  /** The command as written (continuation lines joined, `$ ` prompt removed). */
  source: string;
  script: Script;
  /** The exit code a trailing comment names (`# exit 6`), else 0. */
  expectedCode: number;
}

export interface DocBlock {
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  /** Why the block is not run (`<!-- not run: REASON -->` right before it), if it is not. */
  notRun?: string;
  examples: DocExample[];
}

/** A word: text, variables and command substitutions, concatenated. */
export type Part = { text: string } | { variable: string } | { substitution: Script };
export type Word = Part[];

export interface SimpleCommand {
  /** `NAME=value` before the command (for it alone), or the whole statement when there are no words. */
  assignments: Array<{ name: string; value: Word }>;
  words: Word[];
  stdin?: Word;
  stdout?: Word;
  stderr?: Word;
}

export type Pipeline = SimpleCommand[];
/** Pipelines joined by `&&`. */
export type AndList = Pipeline[];
export interface Script {
  /** Separated by `;`. */
  statements: AndList[];
  comment?: string;
}

const FENCE = /^(\s*)(`{3,})\s*([\w-]*)\s*$/;
const NOT_RUN = /^\s*<!--\s*not run:\s*(.*?)\s*-->\s*$/;
const RUN_LANGUAGES = new Set(['sh', 'console']);

/** Every fenced block with shell commands in it: ```sh and ```console blocks, and any other block with a `$ shipper` line (which the test refuses). */
export function blocksOf(markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index]!);
    if (!open) continue;
    const [, indent, fence, language] = open;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && lines[index]!.trim() !== fence; index++) body.push(lines[index]!.slice(indent!.length));
    let previous = start - 1;
    while (previous >= 0 && lines[previous]!.trim() === '') previous--;
    const notRun = previous >= 0 ? NOT_RUN.exec(lines[previous]!)?.[1] : undefined;
    const run = RUN_LANGUAGES.has(language!);
    if (!run && !body.some((line) => /^\$ shipper\b/.test(line))) continue;
    blocks.push({ line: start + 1, language: language!, ...(notRun !== undefined ? { notRun } : {}), examples: run ? examplesOfBlock(body, language!, start + 2) : [] });
  }
  return blocks;
}

function examplesOfBlock(body: string[], language: string, firstLine: number): DocExample[] {
  const examples: DocExample[] = [];
  for (let index = 0; index < body.length; index++) {
    let text = body[index]!;
    const line = firstLine + index;
    if (language === 'console') {
      if (!text.startsWith('$ ')) continue;
      text = text.slice(2);
    }
    if (text.trim() === '' || text.trimStart().startsWith('#')) continue;
    while (/\\$/.test(text) && index + 1 < body.length) text = `${text.slice(0, -1)}\n${body[++index]!}`;
    const script = parseLine(text.replace(/\\?\n\s*/g, ' '));
    const expected = /\bexit (\d+)\b/.exec(script.comment ?? '');
    examples.push({ line, source: text, script, expectedCode: expected ? Number(expected[1]) : 0 });
  }
  return examples;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Parses one command line (no newlines) as the shell would. */
export function parseLine(input: string): Script {
  const parser = new Parser(input);
  const script = parser.script(false);
  if (parser.at < input.length) throw new Error(`unexpected ${JSON.stringify(input.slice(parser.at))} in: ${input}`);
  return script;
}

class Parser {
  at = 0;
  constructor(private readonly input: string) {}

  private peek(offset = 0): string {
    return this.input[this.at + offset] ?? '';
  }

  private skipBlanks(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.at++;
  }

  /** Statements up to the end, or up to the `)` that closes a substitution. */
  script(nested: boolean): Script {
    const statements: AndList[] = [];
    let list: AndList = [];
    let pipeline: Pipeline = [];
    let command: SimpleCommand = { assignments: [], words: [] };
    let comment: string | undefined;
    const endCommand = () => {
      if (command.words.length > 0 || command.assignments.length > 0 || command.stdin || command.stdout || command.stderr) pipeline.push(command);
      else if (pipeline.length > 0 || list.length > 0) throw new Error(`a command is missing in: ${this.input}`);
      command = { assignments: [], words: [] };
    };
    const endPipeline = () => {
      endCommand();
      if (pipeline.length > 0) list.push(pipeline);
      pipeline = [];
    };
    const endList = () => {
      endPipeline();
      if (list.length > 0) statements.push(list);
      list = [];
    };
    for (;;) {
      this.skipBlanks();
      const char = this.peek();
      if (char === '') break;
      if (nested && char === ')') break;
      if (char === '#') {
        comment = this.input.slice(this.at + 1).trim();
        this.at = this.input.length;
        break;
      }
      if (char === '&' && this.peek(1) === '&') {
        this.at += 2;
        endPipeline();
        continue;
      }
      if (char === '|' && this.peek(1) !== '|') {
        this.at++;
        endCommand();
        continue;
      }
      if (char === ';') {
        this.at++;
        endList();
        continue;
      }
      if (char === '<' || char === '>' || (char === '2' && this.peek(1) === '>')) {
        const stream = char === '<' ? 'stdin' : char === '>' ? 'stdout' : 'stderr';
        this.at += stream === 'stderr' ? 2 : 1;
        this.skipBlanks();
        command[stream] = this.word();
        continue;
      }
      if ('&|()'.includes(char)) throw new Error(`${char} is not supported in: ${this.input}`);
      const word = this.word();
      const assignment = command.words.length === 0 ? asAssignment(word) : undefined;
      if (assignment) command.assignments.push(assignment);
      else command.words.push(word);
    }
    endList();
    return { statements, ...(comment !== undefined ? { comment } : {}) };
  }

  /** One word: up to a blank or an operator outside quotes. */
  private word(): Word {
    const parts: Part[] = [];
    const text = (value: string) => {
      const last = parts[parts.length - 1];
      if (last && 'text' in last) last.text += value;
      else parts.push({ text: value });
    };
    for (;;) {
      const char = this.peek();
      if (char === '' || ' \t|&;<>()'.includes(char)) break;
      if (char === "'") {
        const end = this.input.indexOf("'", this.at + 1);
        if (end < 0) throw new Error(`unclosed ' in: ${this.input}`);
        text(this.input.slice(this.at + 1, end));
        this.at = end + 1;
      } else if (char === '"') {
        this.at++;
        for (;;) {
          const inner = this.peek();
          if (inner === '') throw new Error(`unclosed " in: ${this.input}`);
          if (inner === '"') break;
          if (inner === '\\' && '"\\$`'.includes(this.peek(1))) {
            text(this.peek(1));
            this.at += 2;
          } else if (inner === '$' && this.dollar(parts)) {
            continue;
          } else {
            text(inner);
            this.at++;
          }
        }
        this.at++;
        // "" is a word of its own, even empty.
        if (parts.length === 0) text('');
      } else if (char === '\\') {
        text(this.peek(1));
        this.at += 2;
      } else if (char === '$' && this.dollar(parts)) {
        continue;
      } else {
        text(char);
        this.at++;
      }
    }
    return parts;
  }

  /** `$NAME`, `${NAME}` or `$(...)` at the cursor: its part added, true; a lone `$` is text (false). */
  private dollar(parts: Part[]): boolean {
    const next = this.peek(1);
    if (next === '(') {
      this.at += 2;
      const substitution = this.script(true);
      if (this.peek() !== ')') throw new Error(`unclosed $( in: ${this.input}`);
      this.at++;
      parts.push({ substitution });
      return true;
    }
    const match = /^\{([A-Za-z_][A-Za-z0-9_]*)\}|^([A-Za-z_][A-Za-z0-9_]*)/.exec(this.input.slice(this.at + 1));
    if (!match) return false;
    parts.push({ variable: match[1] ?? match[2]! });
    this.at += 1 + match[0].length;
    return true;
  }
}

function asAssignment(word: Word): { name: string; value: Word } | undefined {
  const first = word[0];
  if (!first || !('text' in first)) return undefined;
  const equals = first.text.indexOf('=');
  if (equals <= 0 || !NAME.test(first.text.slice(0, equals))) return undefined;
  const rest = first.text.slice(equals + 1);
  return { name: first.text.slice(0, equals), value: [...(rest ? [{ text: rest }] : []), ...word.slice(1)] };
}
