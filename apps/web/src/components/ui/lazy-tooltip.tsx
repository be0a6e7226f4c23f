import { Suspense, cloneElement, lazy, type ReactElement } from 'react';

const Tooltip = lazy(() => import('@mui/material/Tooltip'));

type LazyTooltipProps = {
  title: string;
  /** The title describes the child rather than names it (`aria-describedby`, not `aria-label`). */
  describeChild?: boolean;
  children: ReactElement<{ title?: string; 'aria-label'?: string }>;
};

/**
 * MUI's Tooltip, loaded after the page (with Popper, its positioning engine: ~12 KB gzipped). Until it
 * arrives the child shows alone, with what the Tooltip gives it while closed: the title as its `title`
 * (`describeChild`) or as its `aria-label`.
 */
export const LazyTooltip = ({ title, describeChild = false, children }: LazyTooltipProps) => {
  const key = describeChild ? 'title' : 'aria-label';
  const fallback = children.props[key] === undefined ? cloneElement(children, { [key]: title }) : children;
  return (
    <Suspense fallback={fallback}>
      <Tooltip title={title} describeChild={describeChild}>
        {children}
      </Tooltip>
    </Suspense>
  );
};
