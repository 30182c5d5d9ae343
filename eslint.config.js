// ESLint (flat config): the recommended JavaScript and typescript-eslint rules, without type
// information (fast: the type-checker already runs as `tsc --noEmit`). Formatting is Prettier's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** One no-restricted-imports block per layer rule (a later block for the same files would replace an earlier one's rule). */
function layerRules(rules) {
  return rules.map(({ files, regex, message }) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns: [{ regex, message }] }] } }));
}

export default tseslint.config(
  // What .gitignore lists (build output, bench bundles and results) is not ours to lint.
  { ignores: ['dist/', 'node_modules/', 'bench/out/', 'coverage/', '.tmp/', '.cache/'] },
  // The official Oway SDK, copied as published (test/vendor/oway-sdk/README.md): its style is not ours to lint.
  { ignores: ['test/vendor/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        queueMicrotask: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        structuredClone: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        URLSearchParams: 'readonly',
        globalThis: 'readonly',
        Intl: 'readonly',
        crypto: 'readonly',
        Blob: 'readonly',
        FormData: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Terminal output and hostile input are tested and cleaned with control characters on purpose.
      'no-control-regex': 'off',
      // Column layouts in tests are matched space for space, as printed.
      'no-regex-spaces': 'off',
    },
  },
  // The floor plan (ARCHITECTURE.md): which layer may import which. Import strings, not resolved paths, are matched.
  ...layerRules([
    { files: ['src/domain/*.ts'], regex: '^(?!zod$|\\./)', message: 'domain/ is pure: it imports only zod and other domain modules' },
    { files: ['src/domain/*/**/*.ts'], regex: '^(?!zod$|\\./|\\.\\./(?!\\.\\./))', message: 'domain/ is pure: it imports only zod and other domain modules' },
    // The one exception (a later block for the same file replaces the rule above): the phone rule reads numbers with libphonenumber-js, pure and loaded lazily.
    { files: ['src/domain/phone.ts'], regex: '^(?!libphonenumber-js/min$|\\./)', message: 'domain/phone.ts imports only libphonenumber-js/min and other domain modules' },
    { files: ['src/import/**/*.ts'], regex: '(^|/)cli/', message: 'import/ never imports cli/: the CLI calls the importer, not the other way' },
    { files: ['src/{bol,invoice,labels,print,edi}/**/*.ts'], regex: '(^|/)(api|store|cli|server)/', message: 'renderers import neither the api, the store nor the shell' },
    { files: ['src/store/**/*.ts'], regex: '(^|/)(api|cli|server)/', message: 'store/ implements the ports; it never imports the engine or the shell' },
    {
      files: ['src/api/operations.ts', 'src/api/openapi.ts', 'src/api/wire.ts'],
      regex: '(^|/)config/',
      message: 'the operations table and the OpenAPI document do not read settings',
    },
  ]),
  {
    // Tests take JSON answers and hostile documents apart and mutate them on purpose.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
