/** The width of the left drawer (and of its place while its code loads), in px. */
export const DRAWER_WIDTH = 248;
