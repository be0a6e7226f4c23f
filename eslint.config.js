import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layersConfig } from './eslint.layers.js';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/drizzle/**',
      'data/**',
      'apps/server/tmp-perf/**',
      'test-results/**',
      'playwright-report/**',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // plain scripts the web serves as they are (public/early.js): a browser's globals, no modules
    files: ['apps/web/public/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        window: 'readonly',
        fetch: 'readonly',
        URLSearchParams: 'readonly',
        localStorage: 'readonly',
        // public/portal-sw.js: the tenant portal's service worker
        self: 'readonly',
        caches: 'readonly',
        URL: 'readonly',
      },
    },
  },
  ...layersConfig(import.meta.dirname),
);
