/**
 * Old event shapes are upcast when read, never rewritten in place. An upcaster lifts the data of
 * one event type from one schema version to the next; they are chained until the current version.
 */
export type Upcaster = (data: unknown) => unknown;

export class Upcasters {
  private readonly byType = new Map<string, Map<number, Upcaster>>();

  register(type: string, fromVersion: number, upcast: Upcaster): this {
    let versions = this.byType.get(type);
    if (!versions) {
      versions = new Map();
      this.byType.set(type, versions);
    }
    versions.set(fromVersion, upcast);
    return this;
  }

  upcast(type: string, version: number, data: unknown): { data: unknown; version: number } {
    const versions = this.byType.get(type);
    if (!versions) return { data, version };
    let current = data;
    let v = version;
    for (let step = versions.get(v); step; step = versions.get(v)) {
      current = step(current);
      v += 1;
    }
    return { data: current, version: v };
  }
}
