import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

/**
 * The `root` error's type when a validation's code could not be loaded (as a page's in `lazyPage`):
 * a form shows it as `shell.chunkFailed`, in the reader's language.
 */
export const RESOLVER_LOAD_FAILED = 'chunk_load_failed';

/**
 * A react-hook-form resolver whose code is loaded on the side rather than with the page: the form's
 * zod schema, and zod with it (~24 KB gzipped), are not needed to show the form, only to check it.
 * `preload()` (after the page's first render) starts the download; a validation waits for it. When
 * the code cannot be loaded the validation fails with a `root` error (`RESOLVER_LOAD_FAILED`), and the
 * next one tries again.
 */
export const lazyResolver = <TInput extends FieldValues, TOutput>(
  load: () => Promise<Resolver<TInput, unknown, TOutput>>,
) => {
  let loading: Promise<Resolver<TInput, unknown, TOutput>> | undefined;
  const get = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));

  const resolver: Resolver<TInput, unknown, TOutput> = async (values, context, options) => {
    let resolve: Resolver<TInput, unknown, TOutput>;
    try {
      resolve = await get();
    } catch (error) {
      console.error('Loading the form validation failed', error);
      const errors = {
        root: { type: RESOLVER_LOAD_FAILED, message: RESOLVER_LOAD_FAILED },
      } as FieldErrors<TInput>;
      return { values: {}, errors };
    }
    return resolve(values, context, options);
  };

  return {
    resolver,
    preload: () => {
      get().catch(() => undefined);
    },
  };
};
