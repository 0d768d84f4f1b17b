import { TasksView } from '@/components/tasks/tasks-view';

export default function TasksPage() {
  return (
    <div className="mx-auto flex max-w-[100rem] flex-col gap-3 p-4">
      <div>
        <h1 className="text-sm font-semibold">Tasks</h1>
        <p className="max-w-3xl text-2xs text-muted">
          A task is a folder: the task text, the starting workspace, the tests the model can run, and hidden
          tests only the verdict runs (so code that fits the visible tests&rsquo; inputs is not judged done).
          Run starts one on the simulated vendor with the virtual clock; the CLI takes the same folder with{' '}
          <code className="mx-1">npm run loop -- --task-dir DIR</code>and a sweep as a dataset.
        </p>
      </div>
      <TasksView />
    </div>
  );
}
