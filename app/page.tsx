import { Suspense } from 'react';
import { Playground } from '@/components/controls/playground';

// The playground reads its form from the URL (useSearchParams), so it renders on the client.
export default function PlaygroundPage() {
  return (
    <Suspense>
      <Playground />
    </Suspense>
  );
}
