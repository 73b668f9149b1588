# Stage hook of review/static-bug-analysis for a Python UCAgent host: the same guidance line hooks.ts adds in skillgate.
# UCAgent imports this file when the skill is in a stage's skill_list and calls setup_vstage(stage); stage.add_hook
# wraps the stage's method so the hook gets (original, *args). Guidance only: the original tasks are always kept.

GUIDANCE_LINE = (
    "Tip (review/static-bug-analysis): go through references/bug_classes.md class by class, record each defect "
    'with RunSkillScript [["review/static-bug-analysis", "record_bug.ts", "--file <path in DUT> --line <N> '
    "--severity high --title '...' --description '...'\"]] (it writes the exact entry format) and review the file "
    "with list_bugs.ts before Check."
)


def add_guidance(original, *args, **kwargs):
    """Hook for the stage's task(): its task list plus one guidance line (anything else is returned unchanged)."""
    tasks = original(*args, **kwargs)
    if isinstance(tasks, list):
        return [*tasks, GUIDANCE_LINE]
    return tasks


def setup_vstage(stage):
    """Called by UCAgent once per stage instance whose skill_list names this skill."""
    stage.add_hook("task", add_guidance)


__all__ = ["setup_vstage"]
