// The typed UI API is exposed here once the host's UI API exists.
export {};
