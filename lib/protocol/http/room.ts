import { z } from 'zod';

/** POST /api/room/join: the room code the teacher gives out. */
export const JoinRoomBodySchema = z
  .object({
    code: z
      .string({ error: 'code: the room code, as a string' })
      .min(1, { error: 'code: enter the room code' })
      .max(200),
  })
  .strict();
export type JoinRoomBody = z.infer<typeof JoinRoomBodySchema>;

/** 200 from POST /api/room/join; the session is the cookie it sets. */
export const JoinedRoomSchema = z.object({ joined: z.literal(true) }).strict();
export type JoinedRoom = z.infer<typeof JoinedRoomSchema>;
