import { ToolbridgeError } from '../../base/errors.js';
import type { UiApiSlice } from '../host-parts.js';
import { requireTool, type ToolViewParts, toolView } from './tool-view.js';

/** Tool reviews: the person accepts a changed definition the catalog holds from agents. */
export const toolReviewsSlice: UiApiSlice<keyof ToolViewParts | 'catalogChanged', 'acceptToolChange'> = (
  parts,
) => ({
  acceptToolChange: async (name) => {
    const { catalog, approvals } = parts;
    const entry = requireTool(catalog, name);
    const definition = catalog.definition(name);
    if (catalog.heldAgainst(name) === undefined || definition === undefined) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `Tool "${name}" has no changed definition waiting for review.`,
      );
    }
    await approvals.reviews.accept({ serverId: entry.serverId, toolName: entry.toolName }, definition);
    parts.catalogChanged();
    return toolView(parts, name);
  },
});
