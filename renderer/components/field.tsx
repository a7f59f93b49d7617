import type { ReactNode } from 'react';
import { ErrorText } from './common.js';

/**
 * One labelled form field: its label, a hint under it, the control, and what is wrong with the
 * value. The whole of it is the control's label, so a click anywhere on it focuses the control.
 */
export function Field(props: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  /** More classes beside `field` (e.g. `grow`). */
  className?: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is `children`, every caller passes one
    <label className={props.className === undefined ? 'field' : `field ${props.className}`}>
      {props.label}
      {props.hint !== undefined && <span className="hint">{props.hint}</span>}
      {props.children}
      {props.error && <ErrorText>{props.error}</ErrorText>}
    </label>
  );
}
