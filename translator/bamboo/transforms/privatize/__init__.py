"""Privatization of globals: each task (virtual rank) gets its own copy of every mutable
variable with static storage duration declared in the user's files.

Scheme (see BAMBOO_PRIVATE in runtime/include/bamboo.h):

* the definition is renamed ``bamboo_initial_<name>``: the template the runtime copies;
* ``size_t bamboo_offset_<name>`` is declared next to it (static for internal linkage and
  function-local statics, a definition where the variable is defined, ``extern`` where it
  is only declared);
* every use becomes ``BAMBOO_PRIVATE(<name>)``;
* a constructor at the end of the file registers the variables defined in it.

Internal-linkage names keep their name (their symbols are static); function-local statics
become ``<function>__<name>`` and their template moves to file scope just before the
function, on the function's first line.

A header's tentative definition (``EXTERN int x;`` where the one file that defines the
program's globals sets ``#define EXTERN`` before including it) cannot be renamed: the file
that includes it defines the offset and registers the header's own variable as the
template.

An ``extern`` declaration of a C library variable (``optarg``, ``environ``) is the
library's, not the program's. getopt's variables (``optarg``, ``optind``, ``opterr``,
``optopt``) are the task's own in the runtime: each use of the library's becomes a call,
``(*bamboo_optarg())``, and members, parameters and locals of those names stay the program's.

C++ (docs/directives.md, "C++"): variables of namespaces (named or anonymous) and static data
members are privatized the same way, their template and offset declared in the variable's own
scope (a use with a qualifier, ``ns::x``, becomes ``BAMBOO_PRIVATE_IN(ns, x)``); each
variable registers itself where its offset is defined (``bamboo_register_global``), since a
constructor at the end of the file could not name a class's private members. Tasks' copies of
a variable of a trivial type start as bytes copied from the template; a function-local static
of one must have a constant initializer (the template is initialized before main, not at the
first call). An object of a non-trivial type (a constructor, destructor or copy of its own)
is constructed by each task instead: its declaration becomes ``typedef T
bamboo_initial_<name>;`` (so ``BAMBOO_PRIVATE`` finds its type there), and where it is defined
its initializer moves into a function that constructs it in the task's slot, registered by
``bamboo_register_object``; a function-local one is constructed in place at the task's first
pass (``BAMBOO_FIRST_PASS``). What cannot be privatized this way is an error at its
declaration: statics in templates (each instantiation would need its own), variables declared
in a header, a static member used through an object (``c.count``) or named by a
using-declaration, an object whose type is deduced (``auto``).

The package, in the order the plan is made (plan.py): variables.py finds the variables,
uses.py the uses to rewrite, declarations.py (with objects.py for C++ objects each task
constructs) the declarations' edits; registration.py writes how each variable registers;
apply.py makes the planned edits. The plan is one value: the other transformations receive its
name rewrites, ``--explain`` its variables.
"""
from .apply import PrivatizeGlobals
from .plan import PrivatizationPlan, plan_privatization

__all__ = ["PrivatizationPlan", "PrivatizeGlobals", "plan_privatization"]
