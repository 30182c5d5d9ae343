/** SQL files are imported as their text (esbuild's text loader in scripts/build.mjs, a plugin in vitest.config.ts). */
declare module '*.sql' {
  const text: string;
  export default text;
}
