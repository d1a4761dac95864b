import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TaskDeadline } from "../../src/tasks/task-deadline.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("TaskDeadline", () => {
  it("expires once the budget is used up while the task works", () => {
    const expired = vi.fn();
    new TaskDeadline(1_000, expired);
    vi.advanceTimersByTime(999);
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledOnce();
  });

  it("stands still while the task waits for input, and goes on with what was left", () => {
    const expired = vi.fn();
    const deadline = new TaskDeadline(1_000, expired);
    vi.advanceTimersByTime(400);
    deadline.pause(true); // input_required: the user is asked
    vi.advanceTimersByTime(60_000);
    expect(expired).not.toHaveBeenCalled();
    expect(deadline.remainingMs()).toBe(600);
    deadline.pause(false); // working again
    vi.advanceTimersByTime(599);
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledOnce();
  });

  it("stands still while a question is open, however long the dialog stays, and while any is", () => {
    const expired = vi.fn();
    const deadline = new TaskDeadline(1_000, expired);
    const first = deadline.hold();
    const second = deadline.hold();
    vi.advanceTimersByTime(60_000);
    first();
    first(); // releasing twice counts once
    vi.advanceTimersByTime(60_000);
    expect(expired).not.toHaveBeenCalled();
    second();
    vi.advanceTimersByTime(1_000);
    expect(expired).toHaveBeenCalledOnce();
  });

  it("never expires once cleared (the task ended)", () => {
    const expired = vi.fn();
    const deadline = new TaskDeadline(1_000, expired);
    deadline.clear();
    deadline.pause(false);
    vi.advanceTimersByTime(5_000);
    expect(expired).not.toHaveBeenCalled();
  });
});
