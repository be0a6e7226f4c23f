import { useId, useState, type MouseEvent } from 'react';

/**
 * A menu opened by a button: the button's props (its id, `aria-haspopup`, `aria-controls` while open,
 * `aria-expanded`, the click that opens) and the menu's (its id, anchor, open state, labelled by the
 * button).
 */
export const useMenu = () => {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  const open = anchor !== null;
  const buttonId = `${id}-button`;
  const menuId = `${id}-menu`;
  const close = () => setAnchor(null);
  return {
    open,
    close,
    buttonProps: {
      id: buttonId,
      'aria-haspopup': 'menu' as const,
      'aria-controls': open ? menuId : undefined,
      'aria-expanded': open,
      onClick: (event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget),
    },
    menuProps: {
      id: menuId,
      anchorEl: anchor,
      open,
      onClose: close,
      slotProps: { list: { 'aria-labelledby': buttonId } },
    },
  };
};
