"""Write the nbgitpuller links that open each lesson of the student edition on a JupyterHub.

Publish build/student/ (what `make student` writes) as a git repository, then give its address and your hub's:

    python scripts/hub_link.py https://github.com/you/ad-class --hub https://hub.example.edu
    make hub-links STUDENT_REPO=https://github.com/you/ad-class HUB_URL=https://hub.example.edu

Each line of the output (printed, and written to build/hub-links.md by make hub-links) is a lesson and its
link. A student who clicks one signs in to the hub, and nbgitpuller (installed on the hub) clones the
repository into their home folder on the first click, into a folder named like the last part of the
address (ad-class), or merges the teacher's new commits into it on later clicks, keeping the student's own
changes; JupyterLab then opens the lesson.
"""

import argparse
import pathlib
import sys
import urllib.parse


def repository_folder(repository):
    """The folder nbgitpuller clones ``repository`` into: the last part of its address, as it is.

    >>> repository_folder("https://github.com/you/ad-class")
    'ad-class'
    >>> repository_folder("file:///srv/class/ad-class.git/")
    'ad-class.git'
    """
    return repository.rstrip("/").split("/")[-1]


def puller_link(hub, repository, notebook, branch="main"):
    """The link that pulls ``branch`` of ``repository`` into the student's home and opens ``notebook`` in it.

    >>> link = puller_link("https://hub.example.edu/", "https://github.com/you/ad-class", "06_tape_rules.ipynb")
    >>> link.split("?")[0]
    'https://hub.example.edu/hub/user-redirect/git-pull'
    >>> for parameter in link.split("?")[1].split("&"):
    ...     print(parameter)
    repo=https%3A%2F%2Fgithub.com%2Fyou%2Fad-class
    branch=main
    urlpath=lab%2Ftree%2Fad-class%2F06_tape_rules.ipynb
    """
    query = {"repo": repository, "branch": branch, "urlpath": f"lab/tree/{repository_folder(repository)}/{notebook}"}
    return f"{hub.rstrip('/')}/hub/user-redirect/git-pull?{urllib.parse.urlencode(query, quote_via=urllib.parse.quote)}"


def lesson_links(hub, repository, edition, branch="main"):
    """(lesson, link) for every notebook at the top of the ``edition`` folder, in the order of their names."""
    notebooks = sorted(pathlib.Path(edition).glob("*.ipynb"))
    if not notebooks:
        raise SystemExit(f"{edition} holds no notebook: run make student first (it writes build/student/)")
    return [(path.stem, puller_link(hub, repository, path.name, branch)) for path in notebooks]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repository", help="the address students' servers clone the student edition from")
    parser.add_argument("--hub", required=True, help="your JupyterHub's address, e.g. https://hub.example.edu")
    parser.add_argument("--branch", default="main", help="the branch that holds the student edition (main)")
    parser.add_argument("--edition", default="build/student", help="the student edition's folder (build/student)")
    parser.add_argument("--output", help="also write the links to this Markdown file")
    args = parser.parse_args(argv)
    if not args.repository or not args.hub:
        parser.error("give the student edition's repository address and the hub's address "
                     "(make hub-links STUDENT_REPO=... HUB_URL=...)")
    lines = [f"- [{lesson}]({link})" for lesson, link in lesson_links(args.hub, args.repository, args.edition,
                                                                        args.branch)]
    text = "\n".join(lines) + "\n"
    if args.output:
        pathlib.Path(args.output).write_text(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
