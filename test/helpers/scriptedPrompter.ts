/**
 * A Prompter that answers from a script, for unit tests of the wizard flow. Each step names the
 * prompt it expects (a substring or pattern of its message), so a test fails loudly when the flow
 * asks something else. Input answers go through the prompt's validate and transformer like typed
 * ones: a rejected answer is recorded and the next step must answer the same prompt again.
 */
import type { Choice, InputQuestion, Prompter } from '../../src/cli/wizard/prompter.js';

export const INTERRUPT = Symbol('Ctrl-C');

type Answer = string | boolean | unknown[] | typeof INTERRUPT | ((choices: ReadonlyArray<Choice<unknown>>) => unknown);

export interface Step {
  expect: string | RegExp;
  answer: Answer;
}

export const step = (expect: string | RegExp, answer: Answer): Step => ({ expect, answer });

export class ScriptedPrompter implements Prompter {
  readonly asked: string[] = [];
  readonly rejected: Array<{ message: string; value: string; reason: string }> = [];
  /** What the transformer showed for each final input answer (e.g. "60601  Chicago, IL"). */
  readonly shown: string[] = [];
  readonly choicesSeen = new Map<string, ReadonlyArray<Choice<unknown>>>();

  constructor(private readonly steps: Step[]) {}

  get remaining(): number {
    return this.steps.length;
  }

  private next(kind: string, message: string): Answer {
    this.asked.push(message);
    const next = this.steps.shift();
    if (!next) throw new Error(`unscripted ${kind} prompt: "${message}"`);
    const matches = typeof next.expect === 'string' ? message.includes(next.expect) : next.expect.test(message);
    if (!matches) throw new Error(`expected a prompt matching ${String(next.expect)}, got ${kind} "${message}"`);
    if (next.answer === INTERRUPT) {
      const error = new Error('User force closed the prompt with SIGINT');
      error.name = 'ExitPromptError';
      throw error;
    }
    return next.answer;
  }

  async input(question: InputQuestion): Promise<string> {
    for (;;) {
      const answer = this.next('input', question.message);
      if (typeof answer !== 'string') throw new Error(`input "${question.message}" needs a string answer`);
      // Like @inquirer/prompts: Enter on an empty line takes the default, and validate sees it.
      const value = answer === '' && question.default !== undefined ? question.default : answer;
      const verdict = question.validate ? await question.validate(value) : true;
      if (verdict === true) {
        this.shown.push(question.transformer ? question.transformer(value, { isFinal: true }) : value);
        return value;
      }
      this.rejected.push({ message: question.message, value, reason: verdict });
    }
  }

  async confirm(question: { message: string; default?: boolean | undefined }): Promise<boolean> {
    const answer = this.next('confirm', question.message);
    if (answer === '') return question.default ?? false;
    if (typeof answer !== 'boolean') throw new Error(`confirm "${question.message}" needs true, false or ''`);
    return answer;
  }

  async checkbox<T>(question: { message: string; choices: ReadonlyArray<Choice<T>> }): Promise<T[]> {
    this.choicesSeen.set(question.message, question.choices);
    const answer = this.next('checkbox', question.message);
    if (!Array.isArray(answer)) throw new Error(`checkbox "${question.message}" needs a list`);
    for (const value of answer) {
      if (!question.choices.some((choice) => choice.value === value)) throw new Error(`${String(value)} is not a choice of "${question.message}"`);
    }
    return answer as T[];
  }

  async select<T>(question: { message: string; choices: ReadonlyArray<Choice<T>>; default?: T | undefined }): Promise<T> {
    this.choicesSeen.set(question.message, question.choices);
    const answer = this.next('select', question.message);
    if (typeof answer === 'function') return answer(question.choices as ReadonlyArray<Choice<unknown>>) as T;
    if (answer === '') return question.default ?? question.choices[0]!.value;
    const choice = question.choices.find((candidate) => candidate.value === answer);
    if (!choice) throw new Error(`${String(answer)} is not a choice of "${question.message}"`);
    return choice.value;
  }
}
