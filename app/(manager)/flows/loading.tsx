import { ListSkeleton } from "../_shared/list-skeleton";

export default function Loading() {
  return <ListSkeleton title="Flows" />;
}
