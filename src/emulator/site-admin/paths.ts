/** Where the site-admin API lives, relative to the `/api/v2` prefix the server adds. */
export const ADMIN = '/admin';
/** Absolute path prefix, for `links.self`. */
export const API_PREFIX = '/api/v2';
