/** The registry's name rules: module names and namespaces, and providers (each at most 64 characters). */

/** Letters, digits, `-` and `_`, starting and ending with a letter or digit. */
export const MODULE_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?$/;

/** Lowercase letters and digits. */
export const PROVIDER_NAME = /^[a-z0-9]+$/;

export const MAX_NAME_LENGTH = 64;
