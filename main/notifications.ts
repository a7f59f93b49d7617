/** Counts open cards from the host's events, for the tray. */
export class OpenCards {
  private readonly ids = new Set<string>();

  opened(id: string): number {
    this.ids.add(id);
    return this.ids.size;
  }

  closed(id: string): number {
    this.ids.delete(id);
    return this.ids.size;
  }

  reset(ids: string[]): number {
    this.ids.clear();
    for (const id of ids) this.ids.add(id);
    return this.ids.size;
  }
}
