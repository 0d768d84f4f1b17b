'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UploadTaskBody } from '@/lib/protocol/http';
import { apiRequest, jsonPost } from './client';

/** GET / POST /api/tasks, parsed at the edge with the route's own shapes. */
export const tasksApi = {
  list: () => apiRequest((h) => h.TaskListSchema, '/api/tasks'),
  upload: (body: UploadTaskBody) => apiRequest((h) => h.UploadedTaskSchema, '/api/tasks', jsonPost(body)),
};

export function useTasks() {
  return useQuery({ queryKey: ['tasks'], queryFn: tasksApi.list, staleTime: 10_000 });
}

export function useUploadTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: tasksApi.upload,
    onSuccess: () => void client.invalidateQueries({ queryKey: ['tasks'] }),
  });
}
