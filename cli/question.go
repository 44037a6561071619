package cli

import (
	"path/filepath"
	"strings"

	"github.com/reversa/moot/bugfolder"
)

// questionTarget is the question a TARGET names (its ID or its folder
// under the project's .moot/debates/), or nil.
func questionTarget(e *env, arg string) *target {
	project := bugfolder.ProjectRoot(e.cwd)
	dir := bugfolder.FindQuestion(project, e.cwd, arg)
	if dir == "" {
		return nil
	}
	id := filepath.Base(dir)
	return &target{reg: projectRegister(e, project), id: id, questionID: id, root: filepath.Dir(dir), dir: dir}
}

// projectRegister is the register above the working folder, or, in a
// project without one, a stand-in rooted at the project (questions only;
// English headings unless a debate's files say otherwise).
func projectRegister(e *env, project string) *bugfolder.Register {
	if reg, err := bugfolder.FindRoot(e.cwd); err == nil {
		return reg
	}
	return &bugfolder.Register{Project: project, Lang: bugfolder.EN}
}

// registerOrQuestions is the register above the working folder, or, in
// a project without one that holds questions or reviews, projectRegister's
// stand-in (list and the browser show them); with neither, findRegister's
// error.
func registerOrQuestions(e *env) (*bugfolder.Register, error) {
	reg, err := findRegister(e)
	if err == nil {
		return reg, nil
	}
	project := bugfolder.ProjectRoot(e.cwd)
	if qs, _ := bugfolder.QuestionDirs(project); len(qs) == 0 {
		if rs, _ := reviewEntries(e, nil); len(rs) == 0 { // a project with only reviews opens too
			return nil, err
		}
	}
	return projectRegister(e, project), nil
}

// showSubject reads what moot show prints: a question's debate, or a
// bug's debates (oldest first).
func showSubject(e *env, arg string) (*bugfolder.Register, *bugfolder.Bug, []*bugfolder.Debate, error) {
	if t := questionTarget(e, arg); t != nil {
		d, err := bugfolder.ReadDebate(t.dir, t.reg.Lang)
		if err != nil {
			return nil, nil, nil, err
		}
		var ds []*bugfolder.Debate
		if d.State != bugfolder.StateNoDebate {
			ds = append(ds, d)
		}
		return t.reg, bugfolder.QuestionBug(t.reg.Project, t.dir, d), ds, nil
	}
	reg, bug, err := subjectBug(e, arg)
	if err != nil {
		return nil, nil, nil, err
	}
	ds, err := bugfolder.ReadDebates(bug)
	return reg, bug, ds, err
}

// protocolName is the protocol a debate's problema.md names, "debate"
// when it names none (every debate before the protocols work).
func protocolName(d *bugfolder.Debate) string {
	if d != nil && d.Problem != nil {
		return d.Problem.ProtocolName()
	}
	return bugfolder.DefaultProtocol
}

// questionEntries lists the project's questions for moot list, with the
// errors of those that cannot be read.
func questionEntries(reg *bugfolder.Register) ([]listEntry, []error) {
	dirs, err := bugfolder.QuestionDirs(reg.Project)
	if err != nil {
		return nil, []error{err}
	}
	var out []listEntry
	var errs []error
	for _, dir := range dirs {
		s, err := bugfolder.IndexQuestion(reg.Project, dir, reg.Lang)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, s.Problems...)
		out = append(out, toEntry(reg, s))
	}
	return out, errs
}

// resolveSubject finds what resume continues: a question (its ID or
// folder under the project's .moot/debates/), else a bug.
func resolveSubject(e *env, arg string) (*bugfolder.Register, *bugfolder.Bug, error) {
	t := questionTarget(e, arg)
	if t == nil {
		return subjectBug(e, arg)
	}
	d, err := bugfolder.ReadDebate(t.dir, t.reg.Lang)
	if err != nil {
		return nil, nil, err
	}
	b := bugfolder.QuestionBug(t.reg.Project, t.dir, d)
	b.Register = &bugfolder.Register{Root: t.reg.Root, Project: t.reg.Project, Lang: d.Lang}
	return t.reg, b, nil
}

// subjectBug is the bug a TARGET that names no question names; in a
// project without a register it names nothing: "no such question", not
// the missing register a bug command would report (show, transcript and
// resume take questions too).
func subjectBug(e *env, arg string) (*bugfolder.Register, *bugfolder.Bug, error) {
	if _, err := bugfolder.FindRoot(e.cwd); err != nil && !strings.ContainsRune(arg, filepath.Separator) {
		// a path (a bug folder named from outside its project) finds its
		// own register
		project := bugfolder.ProjectRoot(e.cwd)
		return nil, nil, usageErr("%q: no such question in %s nor review (and no _reversa_bugs/ register here, so it names no bug); moot list shows the questions and the reviews",
			arg, filepath.Join(project, bugfolder.QuestionsDir))
	}
	return resolveBug(e, arg)
}
