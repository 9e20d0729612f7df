// npm run storage:migrate – moves every file still kept in the database to the S3 bucket (S3_* must be
// set), verified by SHA-256 and size; resumable: stop it at any point and run it again.
import { openDb } from "@/db/client";
import { targetFromEnv } from "@/lib/db/process-db";
import { migrateFilesToS3 } from "@/lib/storage/migrate-files-to-s3";

const handle = await openDb(targetFromEnv(), { max: 1 });
try {
  let moved = 0;
  const counts = await migrateFilesToS3(handle.db, {
    onFile: () => {
      moved += 1;
      if (moved % 100 === 0) console.log(`${moved} files moved…`);
    },
  });
  console.log(`storage:migrate done: ${counts.objects} document objects, ${counts.chattelFiles} chattel files, ${counts.logos} logos moved to S3; the database holds no file bytes.`);
} catch (error) {
  console.error(`storage:migrate stopped: ${error instanceof Error ? error.message : String(error)} Run it again once fixed; files already moved stay moved.`);
  process.exitCode = 1;
} finally {
  await handle.close();
}
