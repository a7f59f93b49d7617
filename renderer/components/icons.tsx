import type { ViewId } from '../store/ui-slice.js';

/** Stroke icons drawn inline: no image requests, nothing for the CSP to allow. */
const PATHS: Record<ViewId | 'brand', string> = {
  servers: 'M4 5h16v5H4zM4 14h16v5H4zM7.5 7.5h.01M7.5 16.5h.01',
  connections:
    'M9 15l6-6M10.5 6.5l1.8-1.8a4 4 0 0 1 5.7 5.7l-1.8 1.8M13.5 17.5l-1.8 1.8a4 4 0 0 1-5.7-5.7l1.8-1.8',
  tiers: 'M4 19h16M6 15h12M8 11h8M10 7h4',
  cards: 'M5 4h14v16H5zM8 9h8M8 13h5',
  playground: 'M10 4a6 6 0 1 0 0 12 6 6 0 0 0 0-12zM14.5 14.5 20 20',
  activity: 'M3 12h4l3-7 4 14 3-7h4',
  agents: 'M12 4a4 4 0 1 0 0 8 4 4 0 0 0 0-8zM4 20c1.5-4 4.5-6 8-6s6.5 2 8 6',
  settings:
    'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM19 12l2-1-1-3-2.2.3-1.6-1.6L16.5 4l-3-1-1 2h-1l-1-2-3 1 .3 2.2-1.6 1.6L4 7.5 3 10.5l2 1v1l-2 1 1 3 2.2-.3 1.6 1.6L7.5 20l3 1 1-2h1l1 2 3-1-.3-2.2 1.6-1.6 2.2.3 1-3-2-1z',
  brand: 'M4 8h6M14 8h6M4 16h6M14 16h6M10 8l4 8M10 16l4-8',
};

export function Icon(props: { name: ViewId | 'brand'; size?: number }) {
  const size = props.size ?? 18;
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={PATHS[props.name]} />
    </svg>
  );
}
