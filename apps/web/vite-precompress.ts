import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The built files worth compressing (the server compresses the same kinds at request time). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this a file goes as it is (the server's threshold too). */
const MIN_BYTES = 1024;

const filesUnder = async (dir: string): Promise<string[]> =>
  (await fs.readdir(dir, { withFileTypes: true, recursive: true }))
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));

/**
 * After `vite build`, writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) next
 * to each compressible file of the output (not `.vite/`), when smaller than the file; the server
 * sends them as they are to the clients that accept them (@fastify/static `preCompressed`), so
 * the highest levels cost nothing at request time.
 */
export const precompress = (): Plugin => {
  let outDir = '';
  return {
    name: 'kodi-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await filesUnder(outDir)).filter(
        (f) => COMPRESSIBLE.test(f) && !path.relative(outDir, f).startsWith(`.vite${path.sep}`),
      );
      await Promise.all(
        files.map(async (file) => {
          const data = await fs.readFile(file);
          if (data.length < MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(data, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ]);
          if (br.length < data.length) await fs.writeFile(`${file}.br`, br);
          if (gz.length < data.length) await fs.writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
};
