import { config } from 'zod/v4/core';

// zod compiles its object parsers with `new Function` unless told not to, and under the CSP (no
// 'unsafe-eval') even its probe for eval is reported as a violation: the web's zod never evals.
// Evaluated before zod's schemas are (zod-jitless.ts, which the build puts in place of 'zod').
config({ jitless: true });
