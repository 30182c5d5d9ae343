// Preloaded (`node --import`) into a command that test/cli/startup-closure.test.ts runs from the
// bundle: at exit, one line on stderr of what its start-up did that costs time for nothing in a
// short command: functions compiled from code at run time (zod's JIT parsers), ICU date formats
// built, Node built-in modules loaded.
const counts = { compiledFunctions: 0, dateTimeFormats: 0 };

/** The constructor, counting the calls that `counted` picks under `key`. */
function counting(Native, key, counted) {
  const proxy = new Proxy(Native, {
    construct(target, args, newTarget) {
      if (counted(args)) counts[key]++;
      return Reflect.construct(target, args, newTarget === proxy ? target : newTarget);
    },
    apply(target, self, args) {
      if (counted(args)) counts[key]++;
      return Reflect.apply(target, self, args);
    },
  });
  return proxy;
}

// zod checks once that it may compile (new Function("")); a parser has a body.
globalThis.Function = counting(Function, 'compiledFunctions', (args) => String(args.at(-1) ?? '').trim() !== '');
Intl.DateTimeFormat = counting(Intl.DateTimeFormat, 'dateTimeFormats', () => true);
process.on('exit', () => {
  const modules = process.moduleLoadList.filter((name) => name.startsWith('NativeModule ')).map((name) => name.slice('NativeModule '.length));
  process.stderr.write(`STARTUP_PROBE ${JSON.stringify({ ...counts, modules })}\n`);
});
