// ESLint (flat config): the recommended JavaScript and typescript-eslint rules, without type
// information (fast: the type-checker already runs as `tsc --noEmit`). Formatting is Prettier's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // What .gitignore lists (build output, bench bundles and results) is not ours to lint.
  { ignores: ['dist/', 'node_modules/', 'bench/out/', 'coverage/', '.tmp/'] },
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
  {
    // Tests take JSON answers and hostile documents apart and mutate them on purpose.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
