import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const framework = ['next', 'next/*', 'react', 'react-dom', 'react/*', 'zustand', 'zustand/*', '@tanstack/*'];

export default tseslint.config(
  { ignores: ['.next/**', 'node_modules/**', '.data/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['**/*.tsx', 'lib/client/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // The engine is a library: the CLI, the route handlers and the tests drive it the same way.
    files: ['lib/engine/**', 'lib/providers/**', 'lib/trajectory/**', 'lib/sim/**', 'lib/faults/**', 'lib/tools/**', 'lib/clock/**', 'lib/protocol/**', 'lib/runtime/**', 'lib/tokens/**', 'lib/lessons/**', 'lib/store/**', 'lib/cli/**', 'lib/bench/**', 'lib/audit/**', 'lib/compare/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: framework, message: 'lib/ below the client layer is framework-free.' }, { group: ['@/app/*', '@/components/*'], message: 'lib/ never imports from app/ or components/.' }] }],
    },
  },
  {
    // The browser reaches the server only through lib/client and HTTP.
    files: ['components/**', 'lib/client/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@/lib/engine*', '@/lib/server*', '@/lib/store*', '@/lib/sim*', '@/lib/tools*', '@/lib/runtime*', '@/lib/providers*', '@/lib/faults*', '@/lib/tokens*'], message: 'Browser code reaches the server only through lib/client and HTTP.' }] }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
