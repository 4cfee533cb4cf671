/**
 * A deliberately small entry API (services `baseEntry` and `media`: add, get, update, delete) whose only job
 * is to raise the catalog's entry events the way real uploads do. The emulator does no transcoding: an added
 * entry is READY at once, so add raises entry.added, entry.transcoding_complete and entry.ready in that order.
 */
import { randomInt } from "node:crypto";
import { z } from "zod";
import { EntryStatus, FlavorAssetStatus, OBJECT_TYPES } from "../../contract/platform";
import type { ApiCall, ServiceDefinition } from "../api/call";
import type { EmulatorContext } from "../context/emulatorContext";
import { ApiError, minLength } from "../shared/errors";

const EntryFields = z.object({
  name: z.string().optional(),
  description: z.string().optional(),
  tags: z.string().optional(),
  referenceId: z.string().optional(),
  mediaType: z.coerce.number().int().optional(),
});

export interface EntryRecord {
  id: string;
  partnerId: number;
  userId: string;
  name: string;
  description?: string;
  tags?: string;
  referenceId?: string;
  mediaType: number;
  status: number;
  createdAt: number;
  updatedAt: number;
  objectType: string;
}

export function createEntryServices(ctx: EmulatorContext): ServiceDefinition[] {
  const nowSec = (): number => Math.floor(ctx.now() / 1000);

  function find(partnerId: number, id: string): EntryRecord {
    const e = ctx.store.getDoc<EntryRecord>("entry", id);
    if (!e || e.partnerId !== partnerId || e.status === EntryStatus.DELETED) {
      throw new ApiError("ENTRY_ID_NOT_FOUND", `Entry id "${id}" not found`, { ENTRY_ID: id });
    }
    return e;
  }

  const actions = (objectName: "entry" | "mediaEntry") => ({
    add(call: ApiCall): EntryRecord {
      const s = call.session();
      const { fields } = call.parseObject(objectName, OBJECT_TYPES.mediaEntry, EntryFields);
      const now = nowSec();
      let id = "";
      do id = `0_${randomInt(36 ** 7, 36 ** 8).toString(36)}`;
      while (ctx.store.getDoc("entry", id));
      const entry: EntryRecord = {
        ...stripUndefined(fields),
        id,
        partnerId: s.partnerId,
        userId: s.userId,
        name: fields.name ?? "",
        mediaType: fields.mediaType ?? 1,
        status: EntryStatus.READY,
        createdAt: now,
        updatedAt: now,
        objectType: OBJECT_TYPES.mediaEntry,
      };
      ctx.store.putDoc("entry", id, s.partnerId, entry);
      ctx.events.raise(s.partnerId, "entry.added", { ...entry });
      ctx.events.raise(s.partnerId, "entry.transcoding_complete", {
        id: `${id}_flavor0`,
        entryId: id,
        partnerId: s.partnerId,
        status: FlavorAssetStatus.READY,
        flavorParamsId: 0,
        createdAt: now,
        updatedAt: now,
      });
      ctx.events.raise(s.partnerId, "entry.ready", { ...entry });
      return entry;
    },
    get(call: ApiCall): EntryRecord {
      return find(call.session().partnerId, call.str("entryId"));
    },
    update(call: ApiCall): EntryRecord {
      const s = call.session();
      const entry = find(s.partnerId, call.str("entryId"));
      const { fields } = call.parseObject(objectName, OBJECT_TYPES.mediaEntry, EntryFields);
      if (fields.name !== undefined && fields.name.length < 1) throw minLength(`${OBJECT_TYPES.mediaEntry}::name`, 1);
      Object.assign(entry, stripUndefined(fields), { updatedAt: nowSec() });
      ctx.store.putDoc("entry", entry.id, s.partnerId, entry);
      ctx.events.raise(s.partnerId, "entry.updated", { ...entry });
      return entry;
    },
    delete(call: ApiCall): undefined {
      const s = call.session();
      const entry = find(s.partnerId, call.str("entryId"));
      entry.status = EntryStatus.DELETED;
      entry.updatedAt = nowSec();
      ctx.store.putDoc("entry", entry.id, s.partnerId, entry);
      ctx.events.raise(s.partnerId, "entry.deleted", { ...entry });
      return undefined;
    },
  });

  return [
    { name: "baseEntry", actions: actions("entry") },
    { name: "media", actions: actions("mediaEntry") },
  ];
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
