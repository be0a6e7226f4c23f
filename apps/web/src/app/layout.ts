/** The width of the left drawer (and of its place while its code loads), in px. */
export const DRAWER_WIDTH = 248;

/** The id of the drawer's navigation, which the top bar's menu button controls (aria-controls). */
export const NAVIGATION_ID = 'app-navigation';
