import { Playground } from '@/components/controls/playground';

export default function PlaygroundPage() {
  return <Playground />;
}
