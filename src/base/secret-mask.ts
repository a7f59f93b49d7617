/** What the UI shows instead of a secret; sending it back means "keep the stored value". */
export const SECRET_MASK = '••••';
