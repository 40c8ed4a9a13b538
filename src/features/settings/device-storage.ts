/**
 * The browser's storage manager as far as the Storage settings use it. Every method is optional:
 * Safari before 17 has no estimate(), older browsers have no persist(), and some embedded
 * browsers have no navigator.storage at all.
 */
export interface DeviceStorage {
  estimate?: () => Promise<StorageEstimate>;
  persisted?: () => Promise<boolean>;
  persist?: () => Promise<boolean>;
}

export interface DeviceStorageReport {
  /** Bytes used and the quota, or null when the browser does not say. */
  estimate: { usage: number; quota: number } | null;
  /** null when the browser cannot tell (no persisted()). */
  persisted: boolean | null;
  /** Whether the page can ask for persistence at all. */
  canRequestPersistence: boolean;
}

export function browserDeviceStorage(): DeviceStorage | null {
  return typeof navigator !== 'undefined' && 'storage' in navigator ? navigator.storage : null;
}

/** Reads what the browser reports; a method that throws counts as missing, never as an error. */
export async function readDeviceStorage(storage: DeviceStorage): Promise<DeviceStorageReport> {
  const [estimate, persisted] = await Promise.all([
    storage.estimate
      ? storage.estimate().then(
          (result) =>
            typeof result.usage === 'number' && typeof result.quota === 'number'
              ? { usage: result.usage, quota: result.quota }
              : null,
          () => null,
        )
      : Promise.resolve(null),
    storage.persisted ? storage.persisted().catch(() => null) : Promise.resolve(null),
  ]);
  return { estimate, persisted, canRequestPersistence: typeof storage.persist === 'function' };
}
