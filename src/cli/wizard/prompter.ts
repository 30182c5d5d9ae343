/**
 * The questions the wizard asks, as an interface: the terminal implementation is @inquirer/prompts
 * (loaded by dynamic import, so only the wizard pays for it); tests inject a scripted one.
 */
import type { IO } from '../output.js';

/** true = accepted; a string = why not (shown under the prompt, which stays open). */
export type Validation = true | string;

export interface InputQuestion {
  message: string;
  default?: string | undefined;
  /** Runs on Enter; the prompt stays open until it returns true. */
  validate?: (value: string) => Validation | Promise<Validation>;
  /** What to show for the value while it is typed (isFinal: once answered), e.g. the city of a ZIP. */
  transformer?: (value: string, state: { isFinal: boolean }) => string;
}

export interface Choice<T> {
  name: string;
  value: T;
  description?: string | undefined;
  checked?: boolean | undefined;
  /** Shown as the answer once chosen (default: name). */
  short?: string | undefined;
}

export interface Prompter {
  input(question: InputQuestion): Promise<string>;
  confirm(question: { message: string; default?: boolean | undefined }): Promise<boolean>;
  checkbox<T>(question: { message: string; choices: ReadonlyArray<Choice<T>> }): Promise<T[]>;
  select<T>(question: { message: string; choices: ReadonlyArray<Choice<T>>; default?: T | undefined }): Promise<T>;
}

/** Ctrl-C at a prompt rejects with an error of this name (as @inquirer/prompts does). */
export function isPromptInterrupt(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError');
}

/** The terminal prompter: @inquirer/prompts on the IO's streams, coloured only when the IO allows colour. */
export async function createInquirerPrompter(io: IO): Promise<Prompter> {
  const prompts = await import('@inquirer/prompts');
  const c = io.color;
  // Inquirer colours with node:util styleText, which knows NO_COLOR but not --no-color: style it ourselves.
  const theme = {
    prefix: { idle: c.blue('?'), done: c.green('✔') },
    style: {
      answer: (text: string) => c.cyan(text),
      message: (text: string) => c.bold(text),
      error: (text: string) => c.red(`> ${text}`),
      defaultAnswer: (text: string) => c.dim(`(${text})`),
      help: (text: string) => c.dim(text),
      highlight: (text: string) => c.cyan(text),
      key: (text: string) => c.cyan(c.bold(`<${text}>`)),
      description: (text: string) => c.cyan(text),
      disabled: (text: string) => c.dim(text),
      keysHelpTip: (keys: Array<[string, string]>) => keys.map(([key, action]) => `${c.bold(key)} ${c.dim(action)}`).join(c.dim(' • ')),
    },
  };
  const context = { input: io.streams.stdin, output: io.streams.stdout };
  return {
    input: (question) =>
      prompts.input(
        {
          message: question.message,
          ...(question.default !== undefined ? { default: question.default } : {}),
          ...(question.validate ? { validate: question.validate } : {}),
          ...(question.transformer ? { transformer: question.transformer } : {}),
          theme,
        },
        context,
      ),
    confirm: (question) => prompts.confirm({ message: question.message, default: question.default ?? false, theme }, context),
    checkbox: <T>(question: { message: string; choices: ReadonlyArray<Choice<T>> }) =>
      prompts.checkbox<T>({ message: question.message, choices: question.choices.map((choice) => ({ ...choice })), theme, pageSize: 12 }, context),
    select: <T>(question: { message: string; choices: ReadonlyArray<Choice<T>>; default?: T | undefined }) =>
      prompts.select<T>(
        {
          message: question.message,
          choices: question.choices.map((choice) => ({ ...choice })),
          ...(question.default !== undefined ? { default: question.default } : {}),
          theme,
          pageSize: 12,
        },
        context,
      ),
  };
}
