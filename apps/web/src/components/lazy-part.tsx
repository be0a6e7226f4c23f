import { lazy, Suspense, type ComponentType } from 'react';

/**
 * A component of a module loaded when it is first drawn (a part of a dialog, not of the page's first
 * load: issue 26), drawn as nothing until its code has come. Typed as the module's own export.
 */
export const lazyPart = <M extends Record<K, ComponentType<never>>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): M[K] => {
  const Lazy = lazy(async () => ({ default: (await load())[name] as ComponentType<object> }));
  const Part = (props: object) => (
    <Suspense fallback={null}>
      <Lazy {...props} />
    </Suspense>
  );
  Part.displayName = `Lazy(${name})`;
  return Part as unknown as M[K];
};
