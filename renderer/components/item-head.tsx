/**
 * The head of a server's or an app's panel, shared by Servers and Connections: its name with the
 * id beside it when they differ, and the button that opens its details.
 */

/** "Memory · memory-2": the name, and the id where the caller says the name does not say it. */
export function ItemTitle(props: { name: string; id: string; showId: boolean }) {
  return (
    <h2>
      {props.name}
      {props.showId && <span className="faint small"> · {props.id}</span>}
    </h2>
  );
}

/** Opens and closes a panel's details ("Tools & log" / "Hide"). */
export function DetailsToggle(props: {
  open: boolean;
  onToggle: () => void;
  openLabel: string;
  closedLabel: string;
  testId: string;
}) {
  return (
    <button
      type="button"
      className="small"
      aria-expanded={props.open}
      data-testid={props.testId}
      onClick={props.onToggle}
    >
      {props.open ? props.openLabel : props.closedLabel}
    </button>
  );
}
