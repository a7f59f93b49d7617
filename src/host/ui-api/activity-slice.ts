import type { UiApiSlice } from '../host-parts.js';

/** Activity: the audit log, paged and exported. */
export const activitySlice: UiApiSlice<'approvals', 'queryActivity' | 'exportActivity'> = ({
  approvals,
}) => ({
  queryActivity: async (query) => approvals.queryActivity(query),
  exportActivity: async (format, query) => approvals.exportActivity(format, query),
});
